import { lazy, Suspense } from 'react';
import { PageLoader } from '../components/page-loader';
import { LoginScreen } from '../features/auth/components/login-screen';
import { useSession } from '../features/auth/use-session';
import { AppErrorBoundary } from './app-error-boundary';
import { AppProvider } from './provider';

// Signed-in screens load on demand: the first visit (the login screen) downloads only what it shows.
const AccountScreen = lazy(() =>
  import('../features/account/components/account-screen').then((m) => ({ default: m.AccountScreen })),
);

/**
 * The console: the signed-in user's account, or the login screen. A later issue replaces this
 * switch with the router (SPEC §2 routes); the screens stay as they are.
 */
export function App() {
  return (
    <AppProvider>
      <AppErrorBoundary>
        <Suspense fallback={<PageLoader />}>
          <CurrentScreen />
        </Suspense>
      </AppErrorBoundary>
    </AppProvider>
  );
}

function CurrentScreen() {
  const { session, signedIn, signOut } = useSession();
  switch (session.status) {
    case 'loading':
      return <PageLoader />;
    case 'guest':
      return <LoginScreen onSignedIn={signedIn} initialFailure={session.failure} />;
    case 'signed-in':
      return <AccountScreen user={session.user} onLogout={signOut} />;
  }
}
