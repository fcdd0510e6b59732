import type { Page } from '@playwright/test';
import { expect, logins, sidebar, signInWithApi, storageItem, test, urlWithPath } from './support/fixtures';

// SPEC §4: logout clears the user, marks the browser guest and goes to /auth/login.
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
