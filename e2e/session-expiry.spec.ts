import { expect, logins, signInWithApi, storageItem, test, urlWithPath, xsrfToken } from './support/fixtures';

// docs/contract.md, "Error catalogue": a 401 (or 419) while signed in signs the user out and goes to /auth/login by itself.
test('a session ended on the server sends the profile page to login on the next request', async ({
  page,
  playwright,
  baseURL,
}) => {
  await signInWithApi(page, logins.profile);
  await page.goto('/account/profile');
  await expect(page.getByRole('heading', { level: 1, name: 'Профиль' })).toBeVisible();

  // End the session from outside the browser (another client holding the same cookies), so the
  // browser keeps cookies the server no longer knows — as after an expiry or a logout elsewhere.
  const cookies = await page.context().cookies();
  const outside = await playwright.request.newContext({ baseURL });
  const ended = await outside.post('/api/logout', {
    headers: {
      Cookie: cookies.map((c) => `${c.name}=${c.value}`).join('; '),
      'X-XSRF-TOKEN': await xsrfToken(page.context()),
      Accept: 'application/json',
    },
  });
  expect(ended.status(), 'POST /api/logout').toBe(204);
  await outside.dispose();

  // The profile form: the one holding the E-mail field; its submit button (the contract names no label).
  const form = page.locator('form').filter({ has: page.getByRole('textbox', { name: 'E-mail' }) });
  await form.locator('button[type="submit"]').click();
  await expect(page).toHaveURL(urlWithPath('/auth/login'));
  await expect(page.getByRole('heading', { level: 1, name: 'Вход в систему' })).toBeVisible();
  await expect.poll(() => storageItem(page, 'guest')).toBe('isGuest');
});
