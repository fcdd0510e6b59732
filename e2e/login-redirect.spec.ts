import { expect, loginForm, logins, signInWithForm, test, urlWithPath } from './support/fixtures';

// docs/contract.md, "States and transitions": a protected page without a user goes to login with the intended path, and back after.
test('a signed-out visit to /account/profile signs in and returns there', async ({ page }) => {
  await page.goto('/account/profile');
  await expect(page).toHaveURL(urlWithPath('/auth/login', '?redirect=%2Faccount%2Fprofile'));
  await expect(loginForm(page).heading).toBeVisible();

  await signInWithForm(page, logins.admin);
  await expect(page).toHaveURL(urlWithPath('/account/profile', ''));
  await expect(page.getByRole('heading', { level: 1, name: 'Профиль' })).toBeVisible();
});
