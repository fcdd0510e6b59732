import { runCli, seedFixtures, type Fixtures } from '../test-support/server.mjs';
import {
  databaseUrl,
  expect,
  expectNoAxeViolations,
  sidebar,
  signInWithApi,
  test,
  urlWithPath,
} from './support/fixtures';

/**
 * People and complaints (docs/people.md, docs/complaints.md) in a real browser, in Russian: the
 * admin of an organisation of this spec's own makes an access role holding only «Жалобы», invites
 * a user with it (the invitation's link read from the outbox with the operator tool, as an
 * operator without SMTP would), the user accepts the invitation and is signed in by it, lands on
 * the complaints, sees only that module in the sidebar and files a complaint about a device; the
 * admin's dashboard counts the device under «Проблемы». axe finds nothing to fix on the screens
 * on the way.
 */

test.describe('users, access roles and complaints', () => {
  // Several pages, a CLI call and two sign-ins on a loaded machine.
  test.describe.configure({ timeout: 120_000 });

  const unique = `-people-${Date.now().toString(36)}-${process.pid}`;
  const invitedEmail = `ksenia${unique}@e2e.kontrol.test`;
  const password = 'ksenia-complains-2026';
  let org: Fixtures;

  test.beforeAll(() => {
    org = seedFixtures({ databaseUrl: databaseUrl(), suffix: unique });
    runCli(['seed:fleet', '--org', String(org.organisationId), '--devices', '3'], {
      databaseUrl: databaseUrl(),
    });
  });

  test('an invited user with only complaints files one, and the admin’s dashboard counts it', async ({
    page,
    browser,
  }) => {
    await signInWithApi(page, org.admin);
    const devices = await page.request.get('/api/devices/');
    expect(devices.status()).toBe(200);
    const device = ((await devices.json()) as { data: { id: number; name: string }[] }).data[0];
    if (!device) throw new Error('seed:fleet made no device');

    const problems = page.locator('[data-dashboard-counter="issueReports"]');
    await page.goto('/account/dashboard');
    await expect(problems).toHaveText(/Проблемы\s*0/);

    // An access role holding only the complaints.
    await page.goto('/account/users/roles/add');
    await page.getByRole('textbox', { name: 'Название роли' }).fill('Приём жалоб');
    await page.getByRole('checkbox', { name: 'Жалобы' }).check();
    await expectNoAxeViolations(page);
    await page.getByRole('button', { name: 'Добавить роль' }).click();
    await expect(page).toHaveURL(/\/account\/users\/roles\/\d+$/);

    // The invitation.
    await page.goto('/account/users/add');
    await page.getByRole('textbox', { name: 'Имя' }).fill('Ксения Жалобова');
    await page.getByRole('textbox', { name: 'E-mail' }).fill(invitedEmail);
    await page.getByRole('combobox', { name: 'Роль доступа' }).click();
    await page.getByRole('option', { name: 'Приём жалоб' }).click();
    await expectNoAxeViolations(page);
    await page.getByRole('button', { name: 'Отправить приглашение' }).click();
    await expect(page).toHaveURL(/\/account\/users\/\d+$/);
    await expect(page.getByText(`Приглашение отправлено на ${invitedEmail}`)).toBeVisible();
    await expect(page.getByRole('heading', { level: 2, name: 'Ксения Жалобова' })).toBeVisible();
    await expectNoAxeViolations(page);

    const mail = runCli(['mail:show', '--email', invitedEmail], { databaseUrl: databaseUrl() });
    const link = /https?:\/\/\S+\/auth\/reset-password\?\S+/.exec(mail)?.[0];
    if (!link) throw new Error(`no invitation link in:\n${mail}`);
    const invitation = new URL(link);

    // The invited user, in a browser of their own.
    const guest = await browser.newContext({ locale: 'ru-RU' });
    try {
      const invited = await guest.newPage();
      await invited.goto(invitation.pathname + invitation.search);
      await expect(invited.getByRole('heading', { name: 'Выберите пароль' })).toBeVisible();
      await invited.getByLabel('Пароль', { exact: true }).fill(password);
      await invited.getByLabel('Подтверждение пароля').fill(password);
      // Accepting signs the new user in: their first page opens, no login in between.
      await invited.getByRole('button', { name: 'Принять приглашение' }).click();
      await expect(invited).toHaveURL(urlWithPath('/account/requests'));
      await expect(sidebar(invited).getByRole('link')).toHaveText(['Жалобы'], { useInnerText: true });
      await expect(sidebar(invited).getByRole('button')).toHaveText(['Выход'], { useInnerText: true });

      await invited.getByRole('link', { name: 'Новая жалоба' }).click();
      await expect(invited).toHaveURL(urlWithPath('/account/requests/add'));
      await invited.getByRole('textbox', { name: 'Заголовок' }).fill('Печь не греется');
      await invited.getByRole('textbox', { name: 'Описание проблемы' }).fill('С утра не выходит на 180 °C.');
      const deviceField = invited.getByRole('combobox', { name: 'Устройство' });
      await deviceField.click();
      await deviceField.fill(device.name);
      // Options name the device and its address: «Abat КЭП-4 №2 · Ресторан №1, Москва».
      await invited.getByRole('option', { name: `${device.name} · ` }).click();
      await expectNoAxeViolations(invited);
      await invited.getByRole('button', { name: 'Подать жалобу' }).click();
      await expect(invited).toHaveURL(/\/account\/requests\/\d+$/);
      await expect(invited.getByRole('heading', { level: 2, name: 'Печь не греется' })).toBeVisible();
      await expectNoAxeViolations(invited);
    } finally {
      await guest.close();
    }

    // The admin's dashboard counts the device the complaint names.
    await page.goto('/account/dashboard');
    await expect(problems).toHaveText(/Проблемы\s*1/);
    await page.goto('/account/requests');
    await expect(page.getByRole('link', { name: 'Печь не греется' })).toBeVisible();
  });
});
