import type { Locator, Page } from '@playwright/test';
import { seedFixtures, type Fixtures } from '../test-support/server.mjs';
import {
  databaseUrl,
  expect,
  expectNoAxeViolations,
  expectTime,
  fillTime,
  logins,
  signInWithApi,
  test,
  timeField,
  urlWithPath,
} from './support/fixtures';

/**
 * Places and equipment (docs/places-and-equipment.md) in a real browser: an address with its work
 * time and image, a room in it, a smart device with its one-time key, a device group, an edit, and
 * every deletion through its dialog — including the server refusing to delete an address that
 * still has a room — in Russian, as the admin of an organisation of this spec's own (seeded here,
 * so no other spec sees its places).
 * Texts: apps/console/src/locales/ru/translation.json, packages/contracts/src/messages.ts.
 */

/** A real 1×1 PNG (one opaque pixel): the server recognises PNG by its first bytes. */
const ONE_PIXEL_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

const FIX_ERRORS = 'Исправьте следующие ошибки';
const REQUIRED = 'Обязательное поле.';

/** The section of a page named by its `h2` (docs/places-and-equipment.md: page sections). */
function section(page: Page, name: string): Locator {
  return page.getByRole('region', { name, exact: true });
}

/** Picks an option of a Mantine select: opens it, types to narrow it, clicks the option. */
async function choose(page: Page, select: Locator, typed: string, option: string | RegExp) {
  await select.click();
  await select.fill(typed);
  await page.getByRole('option', { name: option }).click();
}

/** The confirmation dialog a delete button opens; confirms it with "Удалить". */
async function confirmDeletion(page: Page, title: string): Promise<Locator> {
  const dialog = page.getByRole('dialog', { name: title });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Удалить', exact: true }).click();
  return dialog;
}

/** The id at the end of the page's path (`/account/devices/42` → 42). */
function idFromUrl(page: Page): number {
  const id = Number(new URL(page.url()).pathname.split('/').at(-1));
  expect(id, `an id at the end of ${page.url()}`).toBeGreaterThan(0);
  return id;
}

test.describe('places and equipment', () => {
  // One organisation's places, built up and torn down step by step; slow pages on a loaded machine.
  test.describe.configure({ mode: 'serial', timeout: 60_000 });

  const unique = `-places-${Date.now().toString(36)}-${process.pid}`;
  const addressName = `Кафе «Уголёк» ${unique}`;
  const roomName = 'Горячий цех';
  const deviceName = 'Пароконвектомат Rational №1';
  const renamedDevice = 'Пароконвектомат Rational №1 (зал)';
  const controllerId = `kc-e2e${unique}`;
  const groupName = 'Печи кухни';
  let org: Fixtures;
  let addressId = 0;
  let roomId = 0;
  let deviceId = 0;
  let groupId = 0;

  test.beforeAll(() => {
    org = seedFixtures({ databaseUrl: databaseUrl(), suffix: unique });
  });

  test.beforeEach(async ({ page }) => {
    await signInWithApi(page, org.admin);
  });

  test('a 422 shows under its fields and under «Исправьте следующие ошибки»', async ({ page }) => {
    await page.goto('/account/addresses/add');
    await expect(page.getByRole('heading', { level: 1, name: 'Добавить адрес' })).toBeVisible();
    // Name left empty (the form has no client-side rules, docs/contract.md, "Validation and errors shown"), a latitude out of range and a
    // Friday that closes when it opens: three messages of the server, each under its own field.
    await page.getByRole('textbox', { name: 'Город', exact: true }).fill('Екатеринбург');
    await page.getByRole('textbox', { name: 'Полный адрес', exact: true }).fill('ул. Вайнера, д. 9');
    await page.getByRole('textbox', { name: 'Широта', exact: true }).fill('95');
    await page.getByRole('textbox', { name: 'Долгота', exact: true }).fill('60.6057');
    await fillTime(timeField(page, 'Пятница, открытие'), '10:00');
    await fillTime(timeField(page, 'Пятница, закрытие'), '10:00');
    await page.getByRole('button', { name: 'Сохранить', exact: true }).click();

    await expect(page.getByRole('alert').filter({ hasText: FIX_ERRORS })).toBeVisible();
    const name = page.getByRole('textbox', { name: 'Название', exact: true });
    await expect(name).toHaveAttribute('aria-invalid', 'true');
    await expect(name).toHaveAccessibleDescription(REQUIRED);
    await expect(page.getByRole('textbox', { name: 'Широта', exact: true })).toHaveAccessibleDescription(
      'Не больше 90.',
    );
    const fridayCloses = page.getByRole('spinbutton', { name: 'Пятница, закрытие, часы', exact: true });
    await expect(fridayCloses).toHaveAccessibleDescription(
      'Время закрытия не может совпадать со временем открытия.',
    );
    // The time fields, their hours, minutes and messages included, read out as they should.
    await expectNoAxeViolations(page);
    // Nothing was saved: still the add page.
    await expect(page).toHaveURL(urlWithPath('/account/addresses/add'));
  });

  test('an address with a work time is created and kept', async ({ page }) => {
    await page.goto('/account/addresses');
    await page.getByRole('link', { name: 'Добавить адрес', exact: true }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Добавить адрес' })).toBeVisible();

    await page.getByRole('textbox', { name: 'Название', exact: true }).fill(addressName);
    await page.getByRole('textbox', { name: 'Город', exact: true }).fill('Екатеринбург');
    await page.getByRole('textbox', { name: 'Полный адрес', exact: true }).fill('ул. Вайнера, д. 9');
    const zone = page.getByRole('combobox', { name: 'Часовой пояс', exact: true });
    await expect(zone).toHaveValue(/^Europe\/Moscow/);
    await choose(page, zone, 'Yekaterinburg', /^Asia\/Yekaterinburg/);
    await expect(zone).toHaveValue(/^Asia\/Yekaterinburg/);

    const workTime = page.getByRole('group', { name: 'Время работы' });
    // Sunday closed: its times go, "Выходной" shows.
    const sunday = workTime.getByRole('switch', { name: 'Воскресенье', exact: true });
    await expect(sunday).toBeChecked();
    await sunday.uncheck({ force: true }); // Mantine's switch input is drawn by its track
    await expect(sunday).not.toBeChecked();
    await expect(timeField(workTime, 'Воскресенье, открытие')).toHaveCount(0);
    await expect(workTime.getByText('Выходной', { exact: true })).toHaveCount(1);
    // Friday till 02:00: past midnight.
    // Typed on a 24-hour clock, as a Russian page shows it (never 02:00 AM).
    await fillTime(timeField(workTime, 'Пятница, открытие'), '10:00');
    await fillTime(timeField(workTime, 'Пятница, закрытие'), '02:00');
    await expect(workTime).not.toContainText(/AM|PM/);
    // Typed with a comma as the decimal sign, as a Russian keyboard gives it.
    await page.getByRole('textbox', { name: 'Широта', exact: true }).pressSequentially('56,8389');
    await page.getByRole('textbox', { name: 'Долгота', exact: true }).fill('60.6057');
    await page.getByRole('button', { name: 'Сохранить', exact: true }).click();

    // Saved: the address's own page replaces the add page.
    await expect(page).toHaveURL(/\/account\/addresses\/\d+$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Адрес' })).toBeVisible();
    addressId = idFromUrl(page);

    // A reload reads it back from the server.
    await page.reload();
    const details = section(page, 'Основные сведения');
    await expect(details.getByRole('textbox', { name: 'Название', exact: true })).toHaveValue(addressName);
    await expect(details.getByRole('combobox', { name: 'Часовой пояс' })).toHaveValue(/^Asia\/Yekaterinburg/);
    await expect(details.getByRole('switch', { name: 'Воскресенье', exact: true })).not.toBeChecked();
    await expect(details.getByRole('switch', { name: 'Пятница', exact: true })).toBeChecked();
    await expectTime(timeField(details, 'Пятница, открытие'), '10:00');
    await expectTime(timeField(details, 'Пятница, закрытие'), '02:00');
    await expectTime(timeField(details, 'Понедельник, закрытие'), '21:00');
    await expect(details.getByRole('textbox', { name: 'Широта', exact: true })).toHaveValue('56.8389');

    // And the list shows it.
    await page.goto('/account/addresses');
    const table = page.getByRole('table', { name: 'Адреса' });
    await expect(table.getByRole('link', { name: addressName })).toHaveAttribute(
      'href',
      `/account/addresses/${addressId}`,
    );
    await expect(table.getByRole('row').filter({ hasText: addressName })).toContainText('Asia/Yekaterinburg');
  });

  test('an image is previewed, uploaded and shown', async ({ page }) => {
    await page.goto(`/account/addresses/${addressId}`);
    const image = section(page, 'Изображение');
    await expect(image.getByText('Изображения пока нет.')).toBeVisible();
    await image.getByLabel('Выбрать изображение').setInputFiles({
      name: 'pixel.png',
      mimeType: 'image/png',
      buffer: ONE_PIXEL_PNG,
    });
    // Previewed before anything is sent.
    const preview = image.getByRole('img', { name: 'Предпросмотр выбранного изображения' });
    await expect(preview).toBeVisible();
    await expect(preview).toHaveAttribute('src', /^blob:/);
    await image.getByRole('button', { name: 'Загрузить', exact: true }).click();
    await expect(image.getByRole('status').filter({ hasText: 'Изображение сохранено.' })).toBeVisible();

    // Now the server's copy, loaded by the browser (one pixel wide), also after a reload.
    await page.reload();
    const stored = section(page, 'Изображение').getByRole('img', { name: `Изображение: ${addressName}` });
    await expect(stored).toHaveAttribute('src', new RegExp(`^/api/addresses/${addressId}/image\\?v=\\d+$`));
    await expect(stored).toHaveJSProperty('complete', true);
    await expect(stored).toHaveJSProperty('naturalWidth', 1);
    await expect(
      section(page, 'Изображение').getByRole('button', { name: 'Удалить изображение' }),
    ).toBeVisible();
  });

  test('a room is added from the address page', async ({ page }) => {
    await page.goto(`/account/addresses/${addressId}`);
    const rooms = section(page, 'Помещения');
    await expect(rooms.getByText('Записей не найдено')).toBeVisible();
    await rooms.getByRole('link', { name: 'Добавить помещение', exact: true }).click();
    await expect(page).toHaveURL(urlWithPath('/account/addresses/room/add', `?address_id=${addressId}`));
    await expect(page.getByRole('heading', { level: 1, name: 'Добавить помещение' })).toBeVisible();
    // The address comes preselected.
    await expect(page.getByRole('combobox', { name: 'Адрес', exact: true })).toHaveValue(
      `${addressName}, Екатеринбург`,
    );
    await page.getByRole('textbox', { name: 'Название', exact: true }).fill(roomName);
    await page.getByRole('textbox', { name: 'Этаж', exact: true }).fill('1');
    await page.getByRole('button', { name: 'Сохранить', exact: true }).click();

    await expect(page).toHaveURL(/\/account\/addresses\/room\/\d+$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Помещение' })).toBeVisible();
    roomId = idFromUrl(page);
    await page.getByRole('link', { name: `← ${addressName}` }).click();
    await expect(page).toHaveURL(urlWithPath(`/account/addresses/${addressId}`));
    await expect(section(page, 'Помещения').getByRole('link', { name: roomName })).toHaveAttribute(
      'href',
      `/account/addresses/room/${roomId}`,
    );
  });

  test('an address that still has a room is not deleted: the server says why', async ({ page }) => {
    await page.goto(`/account/addresses/${addressId}`);
    await section(page, 'Удалить адрес').getByRole('button', { name: 'Удалить адрес', exact: true }).click();
    const dialog = await confirmDeletion(page, `Удалить адрес «${addressName}»?`);
    const failure = dialog.getByRole('alert');
    await expect(failure).toContainText(FIX_ERRORS);
    await expect(failure).toContainText(
      'Нельзя удалить адрес, пока в нём есть помещения или оборудование. Сначала перенесите или удалите их.',
    );
    // The dialog and the page stay; Отмена closes it and the address is still there.
    await dialog.getByRole('button', { name: 'Отмена', exact: true }).click();
    await expect(dialog).toBeHidden();
    await page.reload();
    await expect(
      section(page, 'Основные сведения').getByRole('textbox', { name: 'Название', exact: true }),
    ).toHaveValue(addressName);
  });

  test('a combi oven with a controller id is added; its key is shown once', async ({ page }) => {
    await page.goto('/account/devices');
    await page.getByRole('link', { name: 'Добавить устройство', exact: true }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Добавить устройство' })).toBeVisible();

    await page.getByRole('textbox', { name: 'Название', exact: true }).fill(deviceName);
    await choose(
      page,
      page.getByRole('combobox', { name: 'Тип', exact: true }),
      'Пароконв',
      'Пароконвектомат',
    );
    await choose(
      page,
      page.getByRole('combobox', { name: 'Помещение', exact: true }),
      roomName,
      `${roomName} · ${addressName}`,
    );
    await page.getByRole('textbox', { name: 'Идентификатор контроллера', exact: true }).fill(controllerId);
    await page.getByRole('button', { name: 'Добавить устройство', exact: true }).click();

    const keyDialog = page.getByRole('dialog', { name: 'Ключ подключения устройства' });
    await expect(keyDialog).toBeVisible();
    await expect(keyDialog).toContainText('Ключ показывается только один раз');
    await expect(keyDialog).toContainText(controllerId);
    await expect(keyDialog.getByRole('textbox', { name: 'Ключ подключения' })).toHaveValue(
      /^kdc_[A-Za-z0-9_-]{43}$/,
    );
    // Escape does not lose the key: only its button closes the dialog.
    await page.keyboard.press('Escape');
    await expect(keyDialog).toBeVisible();
    await keyDialog.getByRole('button', { name: 'Ключ сохранён', exact: true }).click();
    await expect(keyDialog).toBeHidden();

    await expect(page).toHaveURL(/\/account\/devices\/\d+$/);
    deviceId = idFromUrl(page);
    await expect(page.getByRole('heading', { level: 2, name: deviceName })).toBeVisible();
    // Its Connection tab: smart, the controller id, a key issued — and the key itself not shown again.
    await expect(page.getByRole('dialog')).toHaveCount(0);
    const facts = page.getByRole('definition');
    await expect(facts.nth(0)).toHaveText(controllerId);
    await expect(facts.nth(1)).toHaveText('Да');
    await expect(facts.nth(4)).not.toHaveText('Ключ не выдан');
    await expect(page.getByRole('textbox', { name: 'Ключ подключения' })).toHaveCount(0);

    // The address page lists it in its room.
    await page.goto(`/account/addresses/${addressId}`);
    const devices = page.getByRole('table', { name: 'Оборудование' });
    await expect(devices.getByRole('link', { name: deviceName })).toHaveAttribute(
      'href',
      `/account/devices/${deviceId}`,
    );
    await expect(devices.getByRole('row').filter({ hasText: deviceName })).toContainText(roomName);
  });

  test('a device group is created with the device in it', async ({ page }) => {
    await page.goto('/account/devices');
    await page.getByRole('tab', { name: 'Группы', exact: true }).click();
    await expect(page).toHaveURL(urlWithPath('/account/devices', '?view=groups'));
    await page.getByRole('link', { name: 'Добавить группу', exact: true }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Добавить группу' })).toBeVisible();

    await page.getByRole('textbox', { name: 'Название группы', exact: true }).fill(groupName);
    await page.getByRole('textbox', { name: 'Описание', exact: true }).fill('Для отчётов по мойке');
    await page.getByRole('searchbox', { name: 'Найти устройства' }).fill(controllerId);
    const found = page.getByRole('group', { name: 'Найденные устройства' });
    await found.getByRole('checkbox', { name: deviceName }).check();
    await expect(page.getByRole('status').filter({ hasText: 'Выбрано: 1' })).toBeVisible();
    await page.getByRole('button', { name: 'Добавить группу', exact: true }).click();

    await expect(page).toHaveURL(/\/account\/devices\/groups\/\d+$/);
    groupId = idFromUrl(page);
    await expect(page.getByRole('heading', { level: 2, name: groupName })).toBeVisible();
    await expect(page.getByRole('status').filter({ hasText: 'Выбрано: 1' })).toBeVisible();

    await page.getByRole('link', { name: '← Все группы' }).click();
    const groups = page.getByRole('table', { name: 'Группы' });
    const row = groups.getByRole('row').filter({ has: page.getByRole('link', { name: groupName }) });
    await expect(row.getByRole('cell')).toHaveText([groupName, 'Для отчётов по мойке', '1']);
  });

  test('the device is renamed on its settings view and the list shows the new name', async ({ page }) => {
    await page.goto(`/account/devices/${deviceId}`);
    await page.getByRole('tab', { name: 'Настройки', exact: true }).click();
    await expect(page).toHaveURL(urlWithPath(`/account/devices/${deviceId}`, '?tab=settings'));
    await expect(page.getByRole('tab', { name: 'Настройки', exact: true })).toHaveAttribute(
      'aria-selected',
      'true',
    );
    // Edited after a fresh load of that URL: for the admin, a query-string change remounts the page
    // a moment later (the bug pinned in devices-10k.spec.ts), which would reset a field typed before.
    await page.goto(`/account/devices/${deviceId}?tab=settings`);
    const name = page.getByRole('textbox', { name: 'Название', exact: true });
    await expect(name).toHaveValue(deviceName);
    await name.fill(renamedDevice);
    await page.getByRole('button', { name: 'Сохранить', exact: true }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Сохранено.' })).toBeVisible();
    await expect(page.getByRole('heading', { level: 2, name: renamedDevice })).toBeVisible();

    await page.getByRole('link', { name: '← Всё оборудование' }).click();
    await expect(page).toHaveURL(urlWithPath('/account/devices', ''));
    const table = page.getByRole('table', { name: 'Оборудование' });
    await expect(table.getByRole('link', { name: renamedDevice, exact: true })).toHaveAttribute(
      'href',
      `/account/devices/${deviceId}`,
    );
    await expect(table.getByRole('link', { name: deviceName, exact: true })).toHaveCount(0);
    await expect(page.getByRole('status').filter({ hasText: /^Показано/ })).toHaveText('Показано 1 из 1');
  });

  test('a room that still has a device is not deleted: the server says why', async ({ page }) => {
    await page.goto(`/account/addresses/room/${roomId}`);
    await section(page, 'Удалить помещение')
      .getByRole('button', { name: 'Удалить помещение', exact: true })
      .click();
    const dialog = await confirmDeletion(page, `Удалить помещение «${roomName}»?`);
    await expect(dialog.getByRole('alert')).toContainText(FIX_ERRORS);
    await expect(dialog.getByRole('alert')).toContainText(
      'Нельзя удалить помещение, пока в нём есть оборудование. Сначала перенесите или удалите его.',
    );
    await dialog.getByRole('button', { name: 'Отмена', exact: true }).click();
    await expect(dialog).toBeHidden();
    await expect(page).toHaveURL(urlWithPath(`/account/addresses/room/${roomId}`));
  });

  test('the group, the device, the room and the address are deleted, each after its dialog', async ({
    page,
  }) => {
    await test.step('the group', async () => {
      await page.goto(`/account/devices/groups/${groupId}`);
      await expect(page.getByRole('heading', { level: 2, name: groupName })).toBeVisible();
      await page.getByRole('button', { name: 'Удалить группу', exact: true }).click();
      const dialog = await confirmDeletion(page, `Удалить группу «${groupName}»?`);
      await expect(dialog).toBeHidden();
      await expect(page).toHaveURL(urlWithPath('/account/devices', '?view=groups'));
      await expect(page.getByText('Записей не найдено')).toBeVisible();
    });

    await test.step('the device', async () => {
      await page.goto(`/account/devices/${deviceId}?tab=settings`);
      await page.getByRole('button', { name: 'Удалить устройство', exact: true }).click();
      const dialog = await confirmDeletion(page, `Удалить устройство «${renamedDevice}»?`);
      await expect(dialog).toBeHidden();
      await expect(page).toHaveURL(urlWithPath('/account/devices', ''));
      await expect(page.getByText('Записей не найдено')).toBeVisible();
      await expect(page.getByRole('status').filter({ hasText: /^Показано/ })).toHaveText('Показано 0 из 0');
    });

    await test.step('the room', async () => {
      await page.goto(`/account/addresses/room/${roomId}`);
      await page.getByRole('button', { name: 'Удалить помещение', exact: true }).click();
      const dialog = await confirmDeletion(page, `Удалить помещение «${roomName}»?`);
      await expect(dialog).toBeHidden();
      // Back on its address, which has no rooms left.
      await expect(page).toHaveURL(urlWithPath(`/account/addresses/${addressId}`));
      await expect(section(page, 'Помещения').getByText('Записей не найдено')).toBeVisible();
    });

    await test.step('the address', async () => {
      await page.getByRole('button', { name: 'Удалить адрес', exact: true }).click();
      const dialog = await confirmDeletion(page, `Удалить адрес «${addressName}»?`);
      await expect(dialog).toBeHidden();
      await expect(page).toHaveURL(urlWithPath('/account/addresses', ''));
      await expect(page.getByText('Записей не найдено')).toBeVisible();
      // Gone on the server too, image included.
      await page.goto(`/account/addresses/${addressId}`);
      await expect(page.getByText('Такого адреса нет или он удалён.')).toBeVisible();
      expect((await page.request.get(`/api/addresses/${addressId}/image`)).status()).toBe(404);
    });
  });
});

// A coordinate that arrives in one input event (pasted, autofilled) keeps its decimal comma: the
// fields are plain text and the comma is read when the form is sent.
test('a latitude pasted with a decimal comma is saved as a decimal', async ({ page }) => {
  await signInWithApi(page, logins.admin);
  await page.goto('/account/addresses/add');
  await page.getByRole('textbox', { name: 'Название', exact: true }).fill(`Вставка ${Date.now()}`);
  await page.getByRole('textbox', { name: 'Город', exact: true }).fill('Екатеринбург');
  await page.getByRole('textbox', { name: 'Полный адрес', exact: true }).fill('ул. Малышева, д. 1');
  const latitude = page.getByRole('textbox', { name: 'Широта', exact: true });
  // fill() inserts the whole text in one input event, as a paste does.
  await latitude.fill('56,8389');
  await expect(latitude).toHaveValue('56,8389');
  await page.getByRole('textbox', { name: 'Долгота', exact: true }).fill('60,6057');
  await page.getByRole('button', { name: 'Сохранить', exact: true }).click();
  await expect(page).toHaveURL(/\/account\/addresses\/\d+$/);
  await page.reload();
  await expect(page.getByRole('textbox', { name: 'Широта', exact: true })).toHaveValue('56.8389');
  await expect(page.getByRole('textbox', { name: 'Долгота', exact: true })).toHaveValue('60.6057');
});
