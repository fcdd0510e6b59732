import {
  expect,
  logins,
  noneShown,
  SIDEBAR_ENTRIES,
  sidebar,
  signInWithApi,
  test,
  urlWithPath,
} from './support/fixtures';

// docs/contract.md, "Screens and routes": below 768 px the sidebar is a drawer behind the "Открыть меню" button.
test.use({ viewport: { width: 375, height: 740 }, isMobile: true, hasTouch: true });

test('at 375 px the sidebar is a drawer that navigates and closes', async ({ page }) => {
  await signInWithApi(page, logins.admin);
  await page.goto('/account/dashboard');
  await expect(page.getByRole('heading', { level: 1, name: 'Главная' })).toBeVisible();
  await expect.poll(() => noneShown(sidebar(page)), { message: 'the sidebar is not shown' }).toBe(true);

  await page.getByRole('button', { name: 'Открыть меню' }).click();
  const dialog = page.getByRole('dialog', { name: 'Основное меню' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('link')).toHaveText(
    SIDEBAR_ENTRIES.map((entry) => entry.ru),
    { useInnerText: true },
  );

  await dialog.getByRole('link', { name: 'Пользователи', exact: true }).click();
  await expect(page).toHaveURL(urlWithPath('/account/users', ''));
  await expect(dialog).toBeHidden();
});
