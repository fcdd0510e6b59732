import { seedFixtures, type Fixtures } from '../test-support/server.mjs';
import {
  databaseUrl,
  expect,
  expectNoAxeViolations,
  signInWithApi,
  test,
  urlWithPath,
  createSmartOven,
  everyMinute,
  MINUTE,
  sendSamples,
} from './support/fixtures';

/**
 * Current templates and device events (docs/events.md) in a real browser, in Russian: an
 * organisation of this spec's own gets a smart combi oven with two hours of samples; its admin
 * writes a template through the editor (name, type, the heating band, a rule, the oven), sees the
 * band over the oven's real current in the preview, saves it, writes an event by hand, finds it in
 * the events list with the filters and acknowledges it there. axe finds nothing to fix on the
 * list, the editor or the events tab.
 */

/** Two hours of an oven heating at about 30 A, one sample a minute, up to a minute ago. */
const heatingHours = (now: number) =>
  everyMinute(120, now - MINUTE, (i) => ({
    current: 25 + (i % 10),
    temperature: 180,
    door_open: false,
    state: 'heating',
  }));

test.describe('current templates and device events', () => {
  // Building the organisation, ingesting and the first load of the pages on a loaded machine.
  test.describe.configure({ timeout: 120_000 });

  const unique = `-templates-${Date.now().toString(36)}-${process.pid}`;
  const deviceName = `Печь ${unique}`;
  const templateName = `Печи 10 GN ${unique}`;
  let org: Fixtures;

  test.beforeAll(() => {
    org = seedFixtures({ databaseUrl: databaseUrl(), suffix: unique });
  });

  test('a template written in the editor, an event by hand acknowledged in the list, and axe', async ({
    page,
    request,
  }) => {
    await signInWithApi(page, org.admin);

    await test.step('a smart oven with two hours of samples', async () => {
      const device = await createSmartOven(page, {
        cafe: `Кафе ${unique}`,
        fullAddress: 'Казань, ул. Баумана, 1',
        city: 'Казань',
        timeZone: 'Europe/Moscow',
        name: deviceName,
        controllerId: `kt${unique}`,
      });
      await sendSamples(request, device.credential, heatingHours(Date.now()));
    });

    await test.step('the templates list is empty, and axe finds nothing', async () => {
      await page.goto('/account/device_event_templates');
      await expect(page.getByRole('heading', { level: 1, name: 'Шаблоны тока' })).toBeVisible();
      await expect(page.getByRole('tab', { name: 'Шаблоны', selected: true })).toBeVisible();
      await expect(page.getByText('Записей не найдено', { exact: true })).toBeVisible();
      await expectNoAxeViolations(page);
    });

    await test.step('the editor: name, type, the heating band, a rule and the oven; the preview', async () => {
      await page.getByRole('link', { name: 'Добавить шаблон' }).click();
      await expect(page).toHaveURL(urlWithPath('/account/device_event_templates/add'));
      await page.getByRole('textbox', { name: 'Название шаблона' }).fill(templateName);
      await page.getByRole('combobox', { name: 'Тип устройства' }).click();
      await page.getByRole('option', { name: 'Пароконвектомат', exact: true }).click();

      const heating = page.getByRole('group', { name: 'Нагрев' });
      await heating.getByRole('textbox', { name: 'От, А' }).fill('15');
      await heating.getByRole('textbox', { name: 'До, А' }).fill('45');

      await page.getByRole('button', { name: 'Добавить правило' }).click();
      const rule = page.getByRole('group', { name: 'Правило 1: Ток выше нормы' });
      await rule.getByRole('textbox', { name: 'Длительность, минут' }).fill('10');

      const using = page.getByRole('combobox', { name: 'Устройства с этим шаблоном' });
      await using.click();
      await using.fill(unique);
      await page.getByRole('option', { name: deviceName }).click();
      await page.keyboard.press('Escape');

      // The oven's real current today, under the band typed above (not saved yet).
      const preview = page.getByRole('figure', { name: new RegExp(`^${deviceName}, `) });
      await expect(preview.locator('canvas')).toBeVisible();
      await expect(preview.getByRole('list', { name: 'Полосы нормы' })).toContainText('Нагрев:15–45 А');
      await expectNoAxeViolations(page);

      await page.getByRole('button', { name: 'Добавить шаблон' }).click();
      await expect(page).toHaveURL(/\/account\/device_event_templates\/\d+$/);
      await expect(page.getByRole('heading', { level: 2, name: templateName })).toBeVisible();
    });

    await test.step('the list shows the template with its device and rule', async () => {
      await page.getByRole('link', { name: '← Все шаблоны' }).click();
      const row = page.getByRole('row', { name: new RegExp(templateName) });
      await expect(row).toContainText('Пароконвектомат');
      await expect(row.getByRole('cell').nth(2)).toHaveText('1');
      await expect(row.getByRole('cell').nth(3)).toHaveText('1');
    });

    await test.step('an event written by hand', async () => {
      await page.getByRole('tab', { name: 'События' }).click();
      await expect(page).toHaveURL(/[?&]tab=events(&|$)/);
      await page.getByRole('link', { name: 'Добавить событие' }).click();
      // The list has an «Устройство» filter too: wait for the form before using its field of that name.
      await expect(page.getByRole('button', { name: 'Добавить событие' })).toBeVisible();
      await page.getByRole('combobox', { name: 'Устройство' }).click();
      await page.getByRole('combobox', { name: 'Устройство' }).fill(unique);
      await page.getByRole('option', { name: deviceName }).click();
      await page.getByRole('combobox', { name: 'Важность' }).click();
      await page.getByRole('option', { name: 'Авария' }).click();
      await page.getByRole('textbox', { name: 'Заголовок' }).fill('Течь под печью');
      await page.getByRole('button', { name: 'Добавить событие' }).click();
      await expect(page).toHaveURL(/\/account\/device_event_templates\/events\/\d+$/);
      await expect(page.getByRole('heading', { level: 2, name: 'Течь под печью' })).toBeVisible();
      await expect(page.getByRole('link', { name: deviceName })).toHaveAttribute(
        'href',
        /^\/account\/devices\/\d+$/,
      );
    });

    await test.step('the events list finds it with the filters and acknowledges it; axe finds nothing', async () => {
      await page.getByRole('link', { name: '← Все события' }).click();
      // The event's page has a «Важность» field too: wait for the list before using its filter.
      await expect(page.getByRole('switch', { name: 'Только неподтверждённые' })).toBeVisible();
      await page.getByRole('combobox', { name: 'Важность' }).click();
      await page.getByRole('option', { name: 'Авария' }).click();
      // The switches write the query string: click, then wait for the list to follow.
      await page.getByRole('switch', { name: 'Только неподтверждённые' }).click();
      await expect(page).toHaveURL(/[?&]unack=1(&|$)/);
      await expect(page).toHaveURL(/[?&]severity=critical(&|$)/);
      const table = page.getByRole('table', { name: 'События' });
      const row = table.getByRole('row', { name: /Течь под печью/ });
      await expect(row).toContainText(deviceName);
      await expect(row).toContainText('Открыто');
      await expectNoAxeViolations(page);

      await row.getByRole('button', { name: /^Подтвердить/ }).click();
      const dialog = page.getByRole('dialog', { name: 'Подтвердить событие' });
      await dialog.getByRole('textbox', { name: 'Комментарий' }).fill('Вызвали сантехника');
      await dialog.getByRole('button', { name: 'Подтвердить' }).click();
      await expect(dialog).toBeHidden();
      // Only unacknowledged events are asked for: it leaves the list.
      await expect(page.getByText('Записей не найдено', { exact: true })).toBeVisible();
      await page.getByRole('switch', { name: 'Только неподтверждённые' }).click();
      await expect(page.getByRole('switch', { name: 'Только неподтверждённые' })).not.toBeChecked();
      await expect(table.getByRole('row', { name: /Течь под печью/ })).toContainText(org.admin.name);
    });
  });
});
