import type { Page } from '@playwright/test';
import { expect, logins, sidebar, signInWithApi, storageItem, test, urlWithPath } from './support/fixtures';

// docs/contract.md, "States and transitions": logout clears the user, marks the browser guest and goes to /auth/login.
async function expectSignedOut(page: Page) {
  await expect(page).toHaveURL(urlWithPath('/auth/login'));
  await expect(page.getByRole('heading', { level: 1, name: 'Вход в систему' })).toBeVisible();
  await expect.poll(() => storageItem(page, 'guest')).toBe('isGuest');
  await page.goto('/account/dashboard');
  await expect(page).toHaveURL(urlWithPath('/auth/login', '?redirect=%2Faccount%2Fdashboard'));
}

test('logout from the user menu', async ({ page }) => {
  await signInWithApi(page, logins.admin);
  await page.goto('/account/dashboard');
  await page.getByRole('button', { name: logins.admin.name }).click();
  await page.getByRole('menuitem', { name: 'Выход', exact: true }).click();
  await expectSignedOut(page);
});

test('logout from the sidebar', async ({ page }) => {
  await signInWithApi(page, logins.admin);
  await page.goto('/account/dashboard');
  await sidebar(page).getByRole('button', { name: 'Выход', exact: true }).click();
  await expectSignedOut(page);
});

/** The session cookie the browser holds now (to ask the server about it after the browser drops it). */
async function sessionCookie(page: Page): Promise<string> {
  const cookie = (await page.context().cookies()).find((c) => c.name === 'kontrol_session');
  if (!cookie) throw new Error('no session cookie');
  return `kontrol_session=${cookie.value}`;
}

/** Signs out from the sidebar while the API cannot be reached: signed out here all the same. */
async function logoutOffline(page: Page) {
  await signInWithApi(page, logins.admin);
  await page.goto('/account/dashboard');
  await expect(sidebar(page)).toBeVisible();
  await page.route('**/api/**', (route) => route.abort('internetdisconnected'));
  await sidebar(page).getByRole('button', { name: 'Выход', exact: true }).click();
  await expect(page).toHaveURL(urlWithPath('/auth/login'));
  await expect(page.getByRole('status')).toHaveText(
    'Вы вышли на этом устройстве. Сервер завершит сеанс, когда связь восстановится.',
  );
  await expect.poll(() => storageItem(page, 'guest')).toBe('isGuest');
  expect(await storageItem(page, 'logoutPending')).toBe('1');
}

test('logout without a connection: signed out here, the server session ended once back online', async ({
  page,
  request,
}) => {
  await logoutOffline(page);
  const cookie = await sessionCookie(page);
  // The server never heard of it: the session still lives.
  expect((await request.get('/api/users/auth', { headers: { cookie } })).status()).toBe(200);
  await page.unroute('**/api/**');
  await page.evaluate(() => window.dispatchEvent(new Event('online')));
  await expect.poll(() => storageItem(page, 'logoutPending')).toBeNull();
  expect((await request.get('/api/users/auth', { headers: { cookie } })).status()).toBe(401);
});

test('logout without a connection: an account page opened next ends the session and asks to sign in', async ({
  page,
  request,
}) => {
  await logoutOffline(page);
  const cookie = await sessionCookie(page);
  await page.unroute('**/api/**');
  // The server answers this page with the left session's user inlined: the console does not take it.
  await page.goto('/account/dashboard');
  await expect(page).toHaveURL(urlWithPath('/auth/login', '?redirect=%2Faccount%2Fdashboard'));
  expect(await storageItem(page, 'logoutPending')).toBeNull();
  expect((await request.get('/api/users/auth', { headers: { cookie } })).status()).toBe(401);
});
