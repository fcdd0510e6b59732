import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import './lib/i18n'; // first: the language is chosen before anything renders
import { RouterProvider } from 'react-router';
import { AppProvider } from './app/provider';
import { startRouter } from './app/router';
import { finishPendingLogout } from './lib/pending-logout';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

/**
 * An account page the server answered with its frame (apps/api plugins/console.ts) loads the
 * console's stylesheets without blocking that frame's paint (`media="print"`): they are switched on
 * here, and waited for, so the console's first screen never shows unstyled. Elsewhere there are none.
 */
async function applyDeferredStyles(): Promise<void> {
  const links = [...document.querySelectorAll<HTMLLinkElement>('link[data-console-styles]')];
  await Promise.all(
    links.map((link) => {
      link.media = 'all';
      if (link.sheet) return Promise.resolve();
      return new Promise((resolve) => {
        link.addEventListener('load', resolve, { once: true });
        link.addEventListener('error', resolve, { once: true }); // unstyled rather than never
      });
    }),
  );
}

/**
 * Starts the console. Not top-level `await` in this entry module: the bundler then splits the
 * first bundle into dozens of small chunks (and the login page's initial JavaScript grows past its
 * budget).
 */
async function start(root: HTMLElement) {
  await applyDeferredStyles();
  // A task of its own for the router's start (its first navigation runs the loaders, which start
  // the reference requests and the page's chunks): on a slow phone, evaluating the modules and
  // starting the router were one long task in which the page could not answer input.
  await new Promise((resolve) => setTimeout(resolve, 0));
  const router = startRouter();

  // A transition, so React renders the first screen in slices of a few milliseconds and the page
  // stays responsive meanwhile (one long task otherwise); the boot frame shows until it commits.
  startTransition(() => {
    createRoot(root).render(
      <StrictMode>
        <AppProvider>
          <RouterProvider router={router} />
        </AppProvider>
      </StrictMode>,
    );
  });
}

// A logout made without a connection ends its server session at the next contact: now, and when
// the browser is back online (lib/pending-logout.ts).
void finishPendingLogout();
window.addEventListener('online', () => void finishPendingLogout());

void start(container);
