import { expect, logins, SIDEBAR_ENTRIES, sidebar, signInWithApi, test } from './support/fixtures';

// docs/contract.md, "Screens and routes": one sidebar entry per held module, in the contract's order, and logout always.
test('the admin sees all ten entries in order, and Выход', async ({ page }) => {
  await signInWithApi(page, logins.admin);
  await page.goto('/account/dashboard');
  const nav = sidebar(page);
  await expect(nav).toBeVisible();
  const links = nav.getByRole('link');
  await expect(links).toHaveText(
    SIDEBAR_ENTRIES.map((entry) => entry.ru),
    { useInnerText: true },
  );
  for (const [index, entry] of SIDEBAR_ENTRIES.entries()) {
    await expect(links.nth(index)).toHaveAttribute('href', entry.path);
  }
  await expect(nav.getByRole('link', { name: 'Главная', exact: true })).toHaveAttribute(
    'aria-current',
    'page',
  );
  await expect(nav.locator('[aria-current="page"]')).toHaveCount(1);
  await expect(page.getByRole('button', { name: 'Выход', exact: true })).toBeVisible();
});

test('a user with dashboard and users sees Главная, Пользователи and Выход only', async ({ page }) => {
  await signInWithApi(page, logins.dashboardUsers);
  await page.goto('/account/dashboard');
  const nav = sidebar(page);
  await expect(nav.getByRole('link')).toHaveText(['Главная', 'Пользователи'], { useInnerText: true });
  await expect(nav.getByRole('button')).toHaveText(['Выход'], { useInnerText: true });
  await expect(page.getByRole('button', { name: 'Выход', exact: true })).toBeVisible();
});
