import { runCli } from '../test-support/server.mjs';
import { databaseUrl, expect, logins, signInWithForm, test, urlWithPath } from './support/fixtures';

// The guest pages submitted for real against the API, and the docs/contract.md, "States and transitions" auth_token link.

test('a one-time auth_token link signs in once, then says it has expired', async ({ page }) => {
  const appUrl = process.env.PLAYWRIGHT_TEST_BASE_URL ?? '';
  const output = runCli(['user:login-link', '--email', logins.admin.email], {
    databaseUrl: databaseUrl(),
    appUrl,
  });
  const link = new URL(output.trim().split('\n').at(-1) ?? '');
  expect(link.origin).toBe(new URL(appUrl).origin);
  const path = `${link.pathname}${link.search}`;
  expect(path).toMatch(/^\/auth\/login\?auth_token=/);

  await page.goto(path);
  await expect(page).toHaveURL(urlWithPath('/account/dashboard', ''));
  await expect(page.getByRole('heading', { level: 1, name: 'Главная' })).toBeVisible();

  // Used up: a second visit (a fresh browser) shows the login form with the reason.
  await page.context().clearCookies();
  await page.evaluate(() => localStorage.clear());
  await page.goto(path);
  await expect(page.getByRole('heading', { level: 1, name: 'Вход в систему' })).toBeVisible();
  await expect(page.getByRole('alert')).toHaveText(
    'Ссылка для входа недействительна или устарела. Войдите с паролем.',
  );
});

test('registration creates an organisation and lands its admin on the dashboard', async ({ page }) => {
  const email = `owner-${Date.now().toString(36)}@example.test`;
  await page.goto('/auth/login');
  await page.getByRole('link', { name: 'Регистрация' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Регистрация' })).toBeVisible();

  // Mismatched passwords first: the error shows under the field, under the docs/contract.md, "Validation and errors shown" heading.
  await page.getByRole('textbox', { name: 'Имя' }).fill('Ольга');
  await page.getByRole('textbox', { name: 'Название организации' }).fill('Пекарня «Колос»');
  await page.getByRole('textbox', { name: 'E-mail' }).fill(email);
  await page.getByLabel('Пароль', { exact: true }).fill('long-enough-1');
  await page.getByLabel('Подтверждение пароля', { exact: true }).fill('different-2');
  await page.getByRole('button', { name: 'Зарегистрироваться' }).click();
  await expect(page.getByRole('alert')).toContainText('Исправьте следующие ошибки');
  await expect(page.getByText('Пароли не совпадают.')).toBeVisible();

  await page.getByLabel('Подтверждение пароля', { exact: true }).fill('long-enough-1');
  await page.getByRole('button', { name: 'Зарегистрироваться' }).click();
  await expect(page).toHaveURL(urlWithPath('/account/dashboard', ''));
  // The new organisation is the user's: its name heads the user menu.
  await page.getByRole('button', { name: 'Ольга' }).click();
  await expect(page.getByRole('menu').getByText('Пекарня «Колос»')).toBeVisible();
});

test('forgot-password answers with the server message, whether or not the address exists', async ({
  page,
}) => {
  await page.goto('/auth/login');
  await page.getByRole('link', { name: 'Забыли пароль?' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Восстановление пароля' })).toBeVisible();
  await page.getByRole('textbox', { name: 'E-mail' }).fill('nobody-here@example.test');
  await page.getByRole('button', { name: 'Отправить ссылку' }).click();
  await expect(page.getByRole('status')).toHaveText(
    'Если этот адрес зарегистрирован, мы отправили на него ссылку для сброса пароля.',
  );
});

test('a reset link without its token says so and offers a new one', async ({ page }) => {
  await page.goto('/auth/reset-password');
  await expect(page.getByRole('alert')).toContainText('Ссылка неполная');
  await expect(page.getByRole('link', { name: 'Запросить новую ссылку' })).toBeVisible();
});

test('profile: a wrong current password is refused under its field', async ({ page }) => {
  await page.goto('/auth/login?redirect=%2Faccount%2Fprofile');
  await signInWithForm(page, logins.dashboardUsers);
  await expect(page.getByRole('heading', { level: 1, name: 'Профиль' })).toBeVisible();
  await page.getByLabel('Текущий пароль', { exact: true }).fill('not-my-password');
  await page.getByLabel('Новый пароль', { exact: true }).fill('a-new-password-1');
  await page.getByLabel('Подтверждение пароля', { exact: true }).fill('a-new-password-1');
  await page.getByRole('button', { name: 'Сменить пароль' }).click();
  await expect(page.getByText('Текущий пароль указан неверно.')).toBeVisible();
  await expect(page.getByRole('alert').filter({ hasText: 'Исправьте следующие ошибки' })).toBeVisible();
});
