import type { Browser, Page } from '@playwright/test';
import { chooseLanguage, expect, logins, signInWithApi, test } from './support/fixtures';

// The server writes an account frame into a signed-in visitor's page (apps/api plugins/console.ts,
// styles in apps/console index.html) that paints before any script runs; the console then replaces
// it with its own AppShell. The two must lay the page's title out alike, or it jumps as the console
// starts (a layout shift) — this test holds the copy and the console together.

const SIZES = [
  { name: 'phone', viewport: { width: 412, height: 823 } },
  { name: 'desktop', viewport: { width: 1280, height: 720 } },
];

async function titleBox(page: Page) {
  const title = page.getByRole('heading', { level: 1, name: 'Главная' });
  await expect(title).toBeVisible();
  return title.evaluate((element) => {
    const { x, y, width, height } = element.getBoundingClientRect();
    const style = getComputedStyle(element);
    return { x, y, width, height, fontSize: style.fontSize, fontWeight: style.fontWeight };
  });
}

async function signedInPage(browser: Browser, baseURL: string | undefined, options: object) {
  const context = await browser.newContext({ baseURL, locale: 'ru-RU', ...options });
  const page = await context.newPage();
  await signInWithApi(page, logins.admin);
  return page;
}

for (const { name, viewport } of SIZES) {
  test(`the account frame lays the title out as the console does (${name})`, async ({ browser, baseURL }) => {
    // With the console's scripts held back, the page stays on the server's frame.
    const still = await signedInPage(browser, baseURL, { viewport });
    await still.context().route(/\/assets\/.*\.js$/, (route) => route.abort());
    await still.goto('/account/dashboard');
    await expect(still.locator('.account-frame')).toBeVisible();
    await expect(still.getByRole('status', { name: 'Загрузка…' })).toBeVisible();
    const frame = await titleBox(still);
    await still.context().close();

    const live = await signedInPage(browser, baseURL, { viewport });
    await live.goto('/account/dashboard');
    await expect(live.locator('.account-frame')).toHaveCount(0);
    const console_ = await titleBox(live);
    await live.context().close();

    for (const side of ['x', 'y', 'width', 'height'] as const)
      expect(Math.abs(frame[side] - console_[side]), `the title's ${side}`).toBeLessThanOrEqual(1);
    expect(frame.fontSize).toBe(console_.fontSize);
    expect(frame.fontWeight).toBe(console_.fontWeight);
  });
}

test('the frame speaks the language the console chose', async ({ page }) => {
  await signInWithApi(page, logins.admin);
  await page.goto('/account/dashboard');
  await chooseLanguage(page, 'en');
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  const html = await (await page.request.get('/account/dashboard')).text();
  expect(html).toContain('<h1 class="account-frame-title">Dashboard</h1>');
});

test("the page's early requests reach the server once: the console takes the preloads' answers", async ({
  page,
}) => {
  const sent = new Map<string, number>();
  page.on('request', (request) => {
    const { pathname, search } = new URL(request.url());
    if (request.method() === 'GET' && pathname.startsWith('/api/'))
      sent.set(pathname + search, (sent.get(pathname + search) ?? 0) + 1);
  });
  const warnings: string[] = [];
  page.on('console', (message) => {
    if (message.text().includes('preload')) warnings.push(message.text());
  });
  await signInWithApi(page, logins.admin);
  await page.goto('/account/dashboard');
  // The counters come from the statistics, the table's types and places from the reference lists.
  await expect(page.getByRole('list', { name: 'Счётчики' }).getByRole('link')).toHaveCount(6);
  const html = await (await page.request.get('/account/dashboard')).text();
  const preloaded = [...html.matchAll(/data-early href="([^"]+)"/g)].map((match) => match[1] ?? '');
  expect(preloaded).toEqual(
    expect.arrayContaining(['/api/devices/', '/api/addresses/', '/api/devices/stat']),
  );
  for (const url of preloaded) expect(sent.get(url), url).toBe(1);
  expect(warnings).toEqual([]);
});

test('an account page preloads the scripts of its frame and its page, each then fetched once', async ({
  page,
}) => {
  const fetched = new Map<string, number>();
  page.on('request', (request) => {
    const { pathname } = new URL(request.url());
    if (pathname.startsWith('/assets/')) fetched.set(pathname, (fetched.get(pathname) ?? 0) + 1);
  });
  await signInWithApi(page, logins.admin);
  await page.goto('/account/devices');
  await expect(page.getByRole('tab', { name: 'Все устройства' })).toBeVisible();
  const html = await (await page.request.get('/account/devices')).text();
  const preloaded = [...html.matchAll(/rel="modulepreload" crossorigin href="([^"]+)"/g)].map(
    (match) => match[1] ?? '',
  );
  // The build names a chunk after its module: the frame's layout and the devices list.
  expect(preloaded.find((file) => file.includes('account-layout'))).toBeDefined();
  expect(preloaded.find((file) => file.includes('devices-page'))).toBeDefined();
  for (const file of preloaded) expect(fetched.get(file), file).toBe(1);
});
