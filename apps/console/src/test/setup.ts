import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { loadAccountTexts } from '../lib/i18n';
import { queryClient } from '../lib/query-client';
import { server } from './server';

// Browser APIs that the UI kit reads and jsdom lacks (happy-dom has them; one test file runs on jsdom).
if (!('matchMedia' in window) || typeof window.matchMedia !== 'function') {
  Object.defineProperty(window, 'matchMedia', {
    value: (query: string) => ({
      matches: false,
      media: query,
      onchange: null,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      addListener: () => undefined,
      removeListener: () => undefined,
      dispatchEvent: () => false,
    }),
  });
}
// What jsdom lacks of what Mantine reads too: the combobox scrolls its active option into view, and
// autosizing text areas listen to font loading.
if (typeof Element.prototype.scrollIntoView !== 'function') {
  Element.prototype.scrollIntoView = () => undefined;
}
if (!('fonts' in document)) {
  Object.defineProperty(document, 'fonts', {
    value: { addEventListener: () => undefined, removeEventListener: () => undefined },
  });
}
globalThis.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
};

// Charts, tables and lists render slowly on a busy two-core machine (four test workers on two
// cores). A limit, not a wait: passing checks return at once.
configure({ asyncUtilTimeout: 15_000 });

beforeAll(async () => {
  server.listen({ onUnhandledRequest: 'error' });
  // Screens are tested outside the router: their Russian texts are loaded here.
  await loadAccountTexts();
});
afterEach(() => {
  cleanup();
  // The server-state cache is one per worker when test files share their modules.
  queryClient.clear();
  server.resetHandlers();
  localStorage.clear();
  sessionStorage.clear();
});
afterAll(() => server.close());

// Failed loads are logged by design (docs/contract.md, "Error catalogue"); in test output one line per error is enough.
const logError = console.error.bind(console);
console.error = (...args: unknown[]) =>
  logError(...args.map((arg) => (arg instanceof Error ? `${arg.name}: ${arg.message}` : arg)));
