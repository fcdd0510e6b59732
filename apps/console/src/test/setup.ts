import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { loadAccountTexts } from '../lib/i18n';
import { server } from './server';

// jsdom lacks these browser APIs that the UI kit reads.
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
globalThis.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
};

beforeAll(async () => {
  server.listen({ onUnhandledRequest: 'error' });
  // Screens are tested outside the router: their Russian texts are loaded here.
  await loadAccountTexts();
});
afterEach(() => {
  cleanup();
  server.resetHandlers();
  localStorage.clear();
  sessionStorage.clear();
});
afterAll(() => server.close());

// Failed loads are logged by design (docs/contract.md, "Error catalogue"); in test output one line per error is enough.
const logError = console.error.bind(console);
console.error = (...args: unknown[]) =>
  logError(...args.map((arg) => (arg instanceof Error ? `${arg.name}: ${arg.message}` : arg)));
