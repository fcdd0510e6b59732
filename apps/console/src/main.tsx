import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import './lib/i18n'; // first: the language is chosen before anything renders
import { RouterProvider } from 'react-router';
import { AppProvider } from './app/provider';
import { router } from './app/router';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

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
