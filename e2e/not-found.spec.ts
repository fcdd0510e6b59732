import { expect, test, urlWithPath } from './support/fixtures';

// docs/contract.md, "Screens and routes": any unknown path shows a not-found page with a way back.
test('an unknown path shows the not-found page, and its link leads back to login', async ({ page }) => {
  await page.goto('/no/such/page');
  await expect(page.getByRole('heading', { level: 1, name: 'Страница не найдена' })).toBeVisible();
  await page.getByRole('link', { name: 'На главную' }).click();
  await expect(page).toHaveURL(urlWithPath('/auth/login'));
  await expect(page.getByRole('heading', { level: 1, name: 'Вход в систему' })).toBeVisible();
});
