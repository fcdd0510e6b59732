// Debian's Chromium, never a downloaded browser: the path and the flags this machine needs (its
// network is closed, so background networking, updates and sync stay off).
export const CHROMIUM_PATH = process.env.CHROME_PATH || '/usr/bin/chromium';

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
