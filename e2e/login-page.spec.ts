import { expect, loginForm, logins, signInWithForm, storageItem, test } from './support/fixtures';

// docs/console-shell.md: the login page as it exists before the router (and after it).
test('the login page lists field errors for an empty submit and signs the admin in', async ({ page }) => {
  await page.goto('/auth/login');
  const form = loginForm(page);
  await expect(form.heading).toBeVisible();
  await expect(form.email).toBeVisible();
  await expect(form.password).toBeVisible();

  await form.submit.click();
  await expect(page.getByRole('alert').filter({ hasText: 'Исправьте следующие ошибки' })).toBeVisible();
  // Each field carries its own message, the error under it as its accessible description.
  // (Mantine's PasswordInput does not set aria-invalid on its input, so only the e-mail is checked.)
  await expect(form.email).toHaveAttribute('aria-invalid', 'true');
  for (const field of [form.email, form.password]) await expect(field).toHaveAccessibleDescription(/\S/);

  await signInWithForm(page, logins.admin);
  await expect(form.heading).toBeHidden();
  await expect(page.getByRole('alert')).toHaveCount(0);
  await expect.poll(() => storageItem(page, 'guest')).toBe('isNotGuest');
  // The browser now holds a session of that user.
  const me = await page.request.get('/api/users/auth');
  expect(me.status()).toBe(200);
  const body = (await me.json()) as { data: { email: string } };
  expect(body.data.email).toBe(logins.admin.email);
});
