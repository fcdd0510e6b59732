import { chooseLanguage, expect, logins, signInWithApi, test } from './support/fixtures';

// Device types are named in the interface language, not in the language the
// browser asked the server for. This browser prefers English, so the reference lists the server
// preloads with the page come in English, while the console speaks Russian (its default).
test.use({ locale: 'en-US' });

test('device types read in the interface language whatever the browser prefers, and follow a switch', async ({
  page,
}) => {
  await signInWithApi(page, logins.admin);
  await page.goto('/account/devices');

  await page.getByRole('combobox', { name: 'Тип', exact: true }).click();
  await expect(page.getByRole('option', { name: 'Пароконвектомат', exact: true })).toBeVisible();
  await expect(page.getByRole('option', { name: 'Combi oven', exact: true })).toHaveCount(0);
  await page.keyboard.press('Escape');

  await chooseLanguage(page, 'en');
  await page.getByRole('combobox', { name: 'Type', exact: true }).click();
  await expect(page.getByRole('option', { name: 'Combi oven', exact: true })).toBeVisible();
  await expect(page.getByRole('option', { name: 'Пароконвектомат', exact: true })).toHaveCount(0);
});
