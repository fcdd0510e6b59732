import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { PageLoader } from '../../../components/page-loader';
import { paths } from '../../../config/paths';
import { endsSession } from '../../../lib/api-errors';
import { markLogoutPending } from '../../../lib/pending-logout';
import { logout } from '../api/logout';
import { resetSession } from '../../../lib/auth/session';

/** What the login page is told by a logout the server has not heard of yet. */
export interface LogoutState {
  logoutPending?: boolean;
}

/**
 * `/auth/logout`: ends the session on the server, clears everything the console holds, marks the
 * browser guest and goes to the login page (docs/console-shell.md). When the server cannot be told (no
 * connection, or it fails), the user is signed out here all the same and the server session is
 * ended at the console's next contact (lib/pending-logout.ts); the login page says so.
 */
export function LogoutPage() {
  const navigate = useNavigate();

  useEffect(() => {
    let cancelled = false;
    void logout()
      .then(
        () => false,
        // 401/419: the session is already gone, which is what the user asked for.
        (error: unknown) => !endsSession(error),
      )
      .then((pending) => {
        if (cancelled) return;
        if (pending) markLogoutPending();
        resetSession();
        const state: LogoutState = { logoutPending: pending };
        void navigate(paths.auth.login, { replace: true, state });
      });
    return () => {
      cancelled = true;
    };
  }, [navigate]);

  return <PageLoader />;
}
