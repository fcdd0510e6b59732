import { expect, logins, signInWithForm, test, urlWithPath, type Login } from './support/fixtures';

// docs/contract.md, "States and transitions": after login the console lands by the user's modules — dashboard when held, else the
// first module's page, else no_access.
const cases: { who: string; login: Login; path: string; heading?: string }[] = [
  { who: 'the admin', login: logins.admin, path: '/account/dashboard', heading: 'Главная' },
  // A recipes-only user lands on the recipes list, the page of their first (and only) module.
  { who: 'the recipes-only user', login: logins.recipes, path: '/account/recipes' },
  {
    who: 'the user without modules',
    login: logins.noModules,
    path: '/account/no_access',
    heading: 'Нет доступа',
  },
];

for (const { who, login, path, heading } of cases) {
  test(`${who} lands on ${path}`, async ({ page }) => {
    await page.goto('/auth/login');
    await signInWithForm(page, login);
    await expect(page).toHaveURL(urlWithPath(path, ''));
    if (heading) await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
  });
}

test('an address outside the held modules goes to the landing page', async ({ page }) => {
  await page.goto('/auth/login');
  await signInWithForm(page, logins.recipes);
  await expect(page).toHaveURL(urlWithPath('/account/recipes', ''));
  await page.goto('/account/dashboard');
  await expect(page).toHaveURL(urlWithPath('/account/recipes', ''));
  // And says why.
  await expect(
    page
      .getByRole('status')
      .filter({ hasText: 'Нет доступа к разделу «Главная»: ваша роль доступа его не включает.' }),
  ).toBeVisible();
});
