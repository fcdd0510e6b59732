import {
  chooseLanguage,
  expect,
  logins,
  sidebar,
  signInWithApi,
  storageItem,
  test,
} from './support/fixtures';

// docs/contract.md, "Constants and limits": Russian by default; the choice of language is stored (local storage `locale`).
test('switching to English survives a reload', async ({ page }) => {
  await signInWithApi(page, logins.admin);
  await page.goto('/account/dashboard');
  await expect(sidebar(page).getByRole('link', { name: 'Главная', exact: true })).toBeVisible();

  await chooseLanguage(page, 'en');
  const english = page.getByRole('navigation', { name: 'Main menu' });
  await expect(english.getByRole('link', { name: 'Dashboard', exact: true })).toBeVisible();
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  expect(await storageItem(page, 'locale')).toBe('en');

  await page.reload();
  await expect(english.getByRole('link', { name: 'Dashboard', exact: true })).toBeVisible();
  await expect(english.getByRole('button', { name: 'Log out', exact: true })).toBeVisible();
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  expect(await storageItem(page, 'locale')).toBe('en');
});
