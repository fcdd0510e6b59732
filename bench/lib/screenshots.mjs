// Screenshots of the console's main screens in light and dark, to compare two builds by eye
// (e.g. before and after a style change): `CONSOLE_DIST=<dist> node bench/lib/screenshots.mjs <out dir>`.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH, withoutLiveStream } from '../../test-support/chromium.mjs';
import { apiLogin, buildIfNeeded, seedFixtures, startServer } from '../../test-support/server.mjs';

const out = process.argv[2] ?? 'bench/results/screenshots';
mkdirSync(out, { recursive: true });
buildIfNeeded();
const server = await startServer();
const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true });
try {
  const logins = seedFixtures({ databaseUrl: server.databaseUrl });
  const admin = await apiLogin(server.baseURL, logins.admin);
  const shots = [
    { name: 'login', path: '/auth/login', heading: 'Вход в систему' },
    { name: 'login-errors', path: '/auth/login', heading: 'Вход в систему', submit: 'Войти' },
    { name: 'register', path: '/auth/register', heading: 'Регистрация' },
    { name: 'dashboard', path: '/account/dashboard', heading: 'Главная', signedIn: true },
    { name: 'profile', path: '/account/profile', heading: 'Профиль', signedIn: true },
  ];
  for (const scheme of ['light', 'dark']) {
    for (const viewport of [
      { width: 1280, height: 800 },
      { width: 412, height: 823 },
    ]) {
      const context = await withoutLiveStream(
        await browser.newContext({ locale: 'ru-RU', colorScheme: scheme, viewport }),
      );
      await context.addCookies(admin.cookies.map((c) => ({ ...c, url: server.baseURL })));
      for (const shot of shots) {
        if (!shot.signedIn) await context.clearCookies();
        else await context.addCookies(admin.cookies.map((c) => ({ ...c, url: server.baseURL })));
        const page = await context.newPage();
        await page.goto(`${server.baseURL}${shot.path}`);
        await page.getByRole('heading', { level: 1, name: shot.heading }).waitFor({ timeout: 30_000 });
        if (shot.submit) await page.getByRole('button', { name: shot.submit, exact: true }).click();
        await page.waitForLoadState('networkidle');
        await page.waitForTimeout(600);
        await page.screenshot({
          path: join(out, `${shot.name}-${scheme}-${viewport.width}.png`),
          fullPage: true,
        });
        await page.close();
      }
      await context.close();
    }
  }
} finally {
  await browser.close();
  await server.stop();
}
