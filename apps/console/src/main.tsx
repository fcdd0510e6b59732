import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import './lib/i18n'; // first: the language is chosen before anything renders
import { RouterProvider } from 'react-router';
import { AppProvider } from './app/provider';
import { router } from './app/router';

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

await applyDeferredStyles();

// A transition, so React renders the first screen in slices of a few milliseconds and the page
// stays responsive meanwhile (one long task otherwise); the boot frame shows until it commits.
startTransition(() => {
  createRoot(container).render(
    <StrictMode>
      <AppProvider>
        <RouterProvider router={router} />
      </AppProvider>
    </StrictMode>,
  );
});
