// Debian's Chromium, never a downloaded browser: the path and the flags this machine needs (its
// network is closed, so background networking, updates and sync stay off).
import { existsSync } from 'node:fs';

/** The full browser, headless: what the benchmarks measure the console in. */
export const CHROMIUM_PATH = process.env.CHROME_PATH || '/usr/bin/chromium';

const HEADLESS_SHELL_PATH = '/usr/bin/chromium-headless-shell';

/**
 * The browser tests' browser: Debian's headless shell (package `chromium-headless-shell`, the same
 * Chromium without the browser's window layer) when it is installed, the full browser otherwise.
 * The browser tests took about a third less CPU in it (docs/operations.md, "CI"). `CHROME_PATH`
 * chooses another, e.g. `/usr/bin/chromium` to watch a run with `--headed`.
 */
export const TEST_BROWSER_PATH =
  process.env.CHROME_PATH || (existsSync(HEADLESS_SHELL_PATH) ? HEADLESS_SHELL_PATH : '/usr/bin/chromium');

/** Flags for every Chromium start; Playwright adds `--headless` itself when headless. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** The same with `--headless`, for launchers that do not add it (chrome-launcher). */
export const CHROMIUM_HEADLESS_ARGS = ['--headless', ...CHROMIUM_ARGS];

/**
 * The live-updates stream (`GET /api/live`, docs/live-updates.md) stays open as long as the page:
 * a page that waits for the network to go quiet would wait for ever. The page benchmarks measure
 * loading, so they leave the stream out: Playwright contexts through {@link withoutLiveStream},
 * Lighthouse through its `blockedUrlPatterns` flag.
 */
export const LIVE_STREAM_PATTERN = '*/api/live*';

/** @param {import('@playwright/test').BrowserContext} context */
export async function withoutLiveStream(context) {
  await context.route('**/api/live**', (route) => route.abort());
  return context;
}
