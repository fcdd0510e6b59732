import { startSimulator, type Simulator } from '@kontrol/simulator';
import type { BrowserContext } from '@playwright/test';
import { freePort, seedFixtures, startServer, type Fixtures } from '../test-support/server.mjs';
import { expect, expectNoAxeViolations, signInWithApi, test, createSmartOven } from './support/fixtures';

/**
 * Recipes, sets and their deployment (docs/recipes.md) in a real browser, in Russian, down to a
 * device that installs the program: a smart combi oven played by the simulator over MQTT (it takes
 * the `programs` command, downloads the file over HTTP with its credential, checks the CRC and
 * reports). Its admin writes a set, then a recipe with three steps in that set (one moved by the
 * keyboard, one ending on the core probe) with the planned curve drawn; deploys the set to the oven
 * from the set's page and watches the delivery reach "installed", then sees it on the device's
 * recipes view. axe finds nothing to fix on the list, the editor and the set’s page.
 *
 * The device must reach an MQTT broker whose port the spec knows, and the shared server's broker
 * listens on a port nobody writes down (`MQTT_PORT=0`, logged at `info` under `LOG_LEVEL=warn`):
 * this spec runs a server of its own, on a fresh database, with a free port it chose.
 */

const unique = `-recipes-${Date.now().toString(36)}-${process.pid}`;
const deviceName = `Пароконвектомат ${unique}`;
const controllerId = `kr${unique}`;
const recipeName = `Курица с овощами ${unique}`;
const setName = `Обеды ${unique}`;

test.describe('recipes, sets and their deployment', () => {
  // A server of its own, the device's connection and the first load of the pages on a loaded machine.
  test.describe.configure({ timeout: 180_000 });

  let server: Awaited<ReturnType<typeof startServer>> | undefined;
  let mqttPort = 0;
  let org: Fixtures;
  let context: BrowserContext;
  let simulator: Simulator | undefined;

  test.beforeAll(async ({ browser }) => {
    // A server of its own: starting it and seeding take more than a test's 30 s on a busy machine.
    test.setTimeout(120_000);
    mqttPort = await freePort();
    server = await startServer({ env: { MQTT_PORT: String(mqttPort), MQTT_HOST: '127.0.0.1' } });
    org = seedFixtures({ databaseUrl: server.databaseUrl, suffix: unique });
    context = await browser.newContext({ baseURL: server.baseURL, locale: 'ru-RU' });
  });

  test.afterAll(async () => {
    await simulator?.stop();
    await context?.close();
    await server?.stop();
  });

  test('a recipe written with steps, bound to a set, deployed to a simulated oven and installed', async () => {
    const page = await context.newPage();
    await signInWithApi(page, org.admin);

    await test.step('a smart combi oven, played by the simulator over MQTT', async () => {
      const device = await createSmartOven(page, {
        cafe: `Кафе ${unique}`,
        fullAddress: 'Самара, ул. Куйбышева, 1',
        city: 'Самара',
        timeZone: 'Europe/Samara',
        name: deviceName,
        controllerId: controllerId,
      });
      simulator = startSimulator({
        devices: [{ controllerId, credential: device.credential, type: 'combi_oven' }],
        transport: 'mqtt',
        mqttUrl: `mqtt://127.0.0.1:${mqttPort}`,
        httpUrl: server?.baseURL,
        intervalMs: 60_000,
        failureRate: 0,
        offlineRate: 0,
      });
    });

    await test.step('an empty set for the oven', async () => {
      await page.goto('/account/recipes');
      await expect(page.getByRole('heading', { level: 1, name: 'Рецепты' })).toBeVisible();
      await expect(page.getByText('Записей не найдено', { exact: true })).toBeVisible();
      await page.getByRole('tab', { name: 'Наборы рецептов' }).click();
      await expect(page).toHaveURL(/[?&]view=sets(&|$)/);
      await page.getByRole('link', { name: 'Добавить набор' }).click();
      await page.getByRole('textbox', { name: 'Название набора' }).fill(setName);
      await page.getByRole('combobox', { name: 'Тип устройства' }).click();
      await page.getByRole('option', { name: 'Пароконвектомат', exact: true }).click();
      await page.getByRole('button', { name: 'Добавить набор' }).click();
      await expect(page).toHaveURL(/\/account\/recipes\/sets\/\d+$/);
      await expect(page.getByRole('heading', { level: 2, name: setName })).toBeVisible();
    });

    await test.step('a recipe of three steps in that set, one moved by the keyboard; its curve', async () => {
      await page.goto('/account/recipes/add');
      await page.getByRole('textbox', { name: 'Название рецепта' }).fill(recipeName);
      await page.getByRole('combobox', { name: 'Тип устройства' }).click();
      await page.getByRole('option', { name: 'Пароконвектомат', exact: true }).click();
      await page.getByRole('combobox', { name: 'Категория' }).fill('Птица');

      const first = page.getByRole('group', { name: 'Шаг 1: Конвекция' });
      await first.getByRole('textbox', { name: 'Температура, °C' }).fill('200');
      await first.getByRole('textbox', { name: 'Время, мин или мм:сс' }).fill('15');

      await page.getByRole('button', { name: 'Добавить шаг' }).click();
      const second = page.getByRole('group', { name: 'Шаг 2: Конвекция' });
      await second.getByRole('textbox', { name: 'Время, мин или мм:сс' }).fill('5:30');

      await page.getByRole('button', { name: 'Добавить шаг' }).click();
      const third = page.getByRole('group', { name: 'Шаг 3: Конвекция' });
      await third.getByRole('radio', { name: 'По температуре щупа' }).check();
      await third.getByRole('textbox', { name: 'Температура щупа, °C' }).fill('75');
      await third.getByRole('textbox', { name: 'Подсказка повару' }).fill('Вставьте щуп');

      // The core-probe step goes first: its handle, Space, the arrow twice, Space; each key is
      // answered in words for a screen reader before the next is pressed.
      const said = (text: string) => page.getByRole('status').filter({ hasText: text });
      await third.getByRole('button', { name: 'Перетащить: шаг 3' }).focus();
      await page.keyboard.press('Space');
      await expect(said('шаг 3: позиция 3 из 3.')).toBeAttached();
      await page.keyboard.press('ArrowUp');
      await expect(said('шаг 3: позиция 2 из 3.')).toBeAttached();
      await page.keyboard.press('ArrowUp');
      await expect(said('шаг 3: позиция 1 из 3.')).toBeAttached();
      await page.keyboard.press('Space');
      await expect(said('шаг 3: поставлено на позицию 1 из 3.')).toBeAttached();
      const probe = page.getByRole('group', { name: 'Шаг 1: Конвекция' });
      await expect(probe.getByRole('textbox', { name: 'Температура щупа, °C' })).toHaveValue('75');

      const curve = page.getByRole('figure', { name: 'Плановая температура' });
      await expect(curve.locator('canvas')).toBeVisible();
      await expect(curve).toContainText(
        'Плановое время: 50 мин 30 с, из них 30 мин — условно для шагов по щупу.',
      );

      await page.getByRole('combobox', { name: 'Наборы рецептов' }).click();
      await page.getByRole('option', { name: setName }).click();
      await page.keyboard.press('Escape');
      await expectNoAxeViolations(page);

      await page.getByRole('button', { name: 'Добавить рецепт' }).click();
      await expect(page).toHaveURL(/\/account\/recipes\/\d+$/);
      await expect(page.getByRole('heading', { level: 2, name: recipeName })).toBeVisible();
      await expect(page.getByRole('group', { name: 'Шаг 1: Конвекция' })).toBeVisible();
    });

    await test.step('the list shows its card in the set', async () => {
      await page.getByRole('link', { name: '← Все рецепты' }).click();
      const card = page
        .getByRole('listitem')
        .filter({ has: page.getByRole('heading', { name: recipeName }) });
      await expect(card).toContainText('Пароконвектомат · Птица');
      await expect(card).toContainText('Шагов: 3');
      await expect(card).toContainText(setName);
      await expectNoAxeViolations(page);
    });

    await test.step('the set deployed to the oven reaches "installed"', async () => {
      await page.getByRole('tab', { name: 'Наборы рецептов' }).click();
      await page.getByRole('link', { name: setName }).click();
      await expect(page.getByRole('list', { name: 'Рецепты набора' })).toContainText(recipeName);
      await expectNoAxeViolations(page);
      await page.getByRole('button', { name: 'Установить на устройства' }).click();
      const dialog = page.getByRole('dialog', { name: `Установка набора «${setName}»` });
      const devices = dialog.getByRole('combobox', { name: 'Устройства' });
      await devices.click();
      await devices.fill(unique);
      await page.getByRole('option', { name: deviceName }).click();
      await page.keyboard.press('Escape');
      await dialog.getByRole('button', { name: 'Установить на устройства: 1' }).click();

      const delivery = dialog.getByRole('region', { name: deviceName });
      await expect(delivery).toBeVisible();
      // The oven takes the command, downloads, checks the CRC and reports; the dialog asks every 2 s.
      await expect(delivery).toContainText('Установлены все (1).', { timeout: 60_000 });
      await expect(delivery.getByRole('listitem')).toContainText(`Установлен${recipeName}`);
      await dialog.getByRole('button', { name: 'Готово' }).click();
      await expect(dialog).toBeHidden();
    });

    await test.step('the device’s recipes view shows the set and the installed recipe', async () => {
      const device = (await (await page.request.get('/api/devices/')).json()) as {
        data: { id: number; name: string }[];
      };
      const oven = device.data.find((one) => one.name === deviceName);
      if (!oven) throw new Error('the oven is not in the devices list');
      await page.goto(`/account/devices/${oven.id}?tab=recipes`);
      await expect(page.getByRole('tab', { name: 'Рецепты', selected: true })).toBeVisible();
      await expect(page.getByRole('region', { name: 'Набор рецептов' })).toContainText(setName);
      const row = page
        .getByRole('table', { name: 'Рецепты на устройстве' })
        .getByRole('row', { name: new RegExp(recipeName) });
      await expect(row).toContainText('Установлен');
      await expect(row).toContainText('v1');
      // The simulator holds the very file: one program stored, none corrupted.
      expect(simulator?.stats().programs).toMatchObject({ stored: 1, corrupted: 0 });
    });
  });
});
