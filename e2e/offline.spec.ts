import { expect, logins, sidebar, signInWithApi, test, urlWithPath } from './support/fixtures';

// docs/console-shell.md, "Losing the connection": the frame stays, the connection error text and a retry,
// and a form being typed keeps its draft in the tab.
test('moving to another page without a connection keeps the frame, says so, retries; the form keeps its draft', async ({
  page,
  context,
}) => {
  await signInWithApi(page, logins.admin);
  await page.goto('/account/addresses/add');
  const name = page.getByRole('textbox', { name: /^Название/ });
  await name.fill('Кафе без связи');

  await context.setOffline(true);
  // A page whose part this visit has not fetched yet.
  await sidebar(page).getByRole('link', { name: 'Биллинг', exact: true }).click();
  const alert = page.getByRole('alert').filter({ hasText: 'Ошибка подключения' });
  await expect(alert).toHaveText('Ошибка подключения. Повторите попытку позже');
  await expect(page.getByRole('banner')).toBeVisible();
  await expect(sidebar(page)).toBeVisible();
  await expect(page.getByRole('heading', { level: 1, name: 'Биллинг' })).toBeVisible();
  // Still offline: the retry leaves the user where they are, told the same.
  await page.getByRole('button', { name: 'Повторить', exact: true }).click();
  await expect(alert).toHaveText('Ошибка подключения. Повторите попытку позже');

  await context.setOffline(false);
  await page.getByRole('button', { name: 'Повторить', exact: true }).click();
  await expect(page).toHaveURL(urlWithPath('/account/billing'));
  await expect(page.getByRole('button', { name: 'Повторить', exact: true })).toHaveCount(0);
  await expect(alert).toHaveCount(0);
  await expect(sidebar(page).getByRole('link', { name: 'Биллинг', exact: true })).toHaveAttribute(
    'aria-current',
    'page',
  );

  // Back to the form in the same tab: the draft is there.
  await page.goto('/account/addresses/add');
  await expect(page.getByRole('textbox', { name: /^Название/ })).toHaveValue('Кафе без связи');
});
