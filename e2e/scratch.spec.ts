import { expect, languageOption, test } from './support/fixtures';
test('scratch', async ({ page }) => {
  await page.goto('/auth/login');
  const en = languageOption(page, 'en');
  await expect(en).toHaveCount(1);
  await en.check();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Sign in to your account');
  console.log(await page.getByRole('alert').count());
});
