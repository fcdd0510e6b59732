import { readFile } from 'node:fs/promises';
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
 * The telemetry page (docs/telemetry.md, "The telemetry page") in a real browser, in Russian: an
 * organisation of this spec's own gets a smart combi oven through the API, the oven sends three
 * hours of samples through the device protocol's HTTP ingest, and its admin opens the page, finds
 * the oven charted by default, sees the charts and the table, downloads the CSV, looks at the
 * notifications tab, and follows the device page's overview to the oven's temperature report.
 * axe finds nothing to fix on either tab.
 */

/** The start of the file the screen's minutes give in Russian (downloads.spec.ts reads it all). */
const CSV_HEADER = '№ устройства;Устройство;Время;Смещение от UTC;Замеров;';
/** Three hours of a working oven, one sample a minute, up to a minute ago. */
const workingHours = (now: number) =>
  everyMinute(180, now - MINUTE, (i) => ({
    current: 12 + (i % 10),
    temperature: 160 + (i % 20),
    door_open: i % 30 === 0,
    state: i % 30 === 0 ? 'idle' : 'cooking',
  }));

/** One sample at `ts` drawing `current` amperes. */
const drawing = (ts: number, current: number) => ({
  ts,
  current,
  temperature: 170,
  door_open: false,
  state: 'cooking',
});

test.describe('the telemetry page', () => {
  // Building the organisation, ingesting and the first load of the page on a loaded machine.
  test.describe.configure({ timeout: 90_000 });

  const unique = `-telemetry-${Date.now().toString(36)}-${process.pid}`;
  const deviceName = `Пароконвектомат ${unique}`;
  let org: Fixtures;
  let oven = { id: 0, credential: '' };

  test.beforeAll(() => {
    org = seedFixtures({ databaseUrl: databaseUrl(), suffix: unique });
  });

  test('charts a device’s samples, lists them, downloads them as CSV, and passes axe', async ({
    page,
    request,
  }) => {
    await signInWithApi(page, org.admin);

    await test.step('a smart oven with three hours of samples', async () => {
      const device = await createSmartOven(page, {
        cafe: `Кафе ${unique}`,
        fullAddress: 'Екатеринбург, ул. Вайнера, 9',
        city: 'Екатеринбург',
        timeZone: 'Asia/Yekaterinburg',
        name: deviceName,
        controllerId: `kc${unique}`,
      });
      oven = { id: device.id, credential: device.credential };
      await sendSamples(request, device.credential, workingHours(Date.now()));
    });

    await test.step('the page opens with the oven charted, and its table filled', async () => {
      await page.goto('/account/telemetry');
      await expect(page.getByRole('heading', { level: 1, name: 'Телеметрия' })).toBeVisible();
      await expect(page.getByRole('tab', { name: 'Телеметрия', selected: true })).toBeVisible();
      // Opened without a choice: the devices with problems, else the first smart ones (the oven).
      await expect(page).toHaveURL(urlWithPath('/account/telemetry'));
      await expect(page).toHaveURL(new RegExp(`[?&]devices=${oven.id}(&|$)`));

      const current = page.getByRole('figure', { name: 'Ток, А' });
      await expect(current.getByRole('img', { name: /^График «Ток, А»: линий — 1/ })).toBeVisible();
      await expect(current.locator('canvas')).toBeVisible();
      await expect(page.getByRole('figure', { name: 'Температура, °C' }).locator('canvas')).toBeVisible();
      await expect(current.getByRole('button', { name: new RegExp(deviceName) })).toHaveAttribute(
        'aria-pressed',
        'true',
      );
      // 24 hours by default: minute rollups, one row per minute with samples (180 of them).
      await expect(page.getByText('Детализация: Минуты')).toBeVisible();
      const table = page.getByRole('table', { name: 'Данные телеметрии' });
      await expect(table).toHaveAttribute('aria-rowcount', '181');
      await expect(table.getByRole('row').nth(1)).toContainText(deviceName);

      // The cursor over the plot reads the values at that time.
      const box = await current.locator('.u-over').boundingBox();
      if (!box) throw new Error('the plot has no box');
      await page.mouse.move(box.x + box.width - 20, box.y + box.height / 2);
      await expect(current.getByRole('button', { name: new RegExp(deviceName) })).toContainText(/\d А/);
    });

    await test.step('the open chart draws a new sample as it comes, without a reload (SSE)', async () => {
      const current = page.getByRole('figure', { name: 'Ток, А' });
      const legend = current.getByRole('button', { name: new RegExp(deviceName) });
      await sendSamples(request, oven.credential, drawing(Date.now() + 3 * MINUTE, 77.7));
      // The newest point is at the right edge of the stretched period.
      await expect(async () => {
        const box = await current.locator('.u-over').boundingBox();
        if (!box) throw new Error('the plot has no box');
        await page.mouse.move(box.x + box.width - 1, box.y + box.height / 2);
        await expect(legend).toContainText('77,7 А', { timeout: 1_000 });
      }).toPass({ timeout: 15_000 });
    });

    await test.step('a reload keeps the choice', async () => {
      await page.reload();
      await expect(page.getByRole('table', { name: 'Данные телеметрии' })).toHaveAttribute(
        'aria-rowcount',
        '181',
      );
    });

    await test.step('the CSV comes with its progress and the server’s name', async () => {
      const downloaded = page.waitForEvent('download');
      await page.getByRole('button', { name: 'Скачать CSV' }).click();
      const download = await downloaded;
      expect(download.suggestedFilename()).toMatch(
        /^telemetry_minute_\d{4}-\d{2}-\d{2}_\d{4}-\d{2}-\d{2}\.csv$/,
      );
      await expect(page.getByText(`Сохранено как ${download.suggestedFilename()}`)).toBeVisible();
      const path = await download.path();
      const text = await readFile(path, 'utf8');
      const lines = text.split('\r\n');
      expect(lines[0]?.startsWith(`\uFEFF${CSV_HEADER}`)).toBe(true);
      expect(lines[1]).toContain(`;${deviceName};`);
      expect(lines.filter(Boolean)).toHaveLength(181);
    });

    await test.step('axe finds nothing on the telemetry tab', async () => {
      await expectNoAxeViolations(page);
    });

    await test.step('the notifications tab: none yet, and axe finds nothing there either', async () => {
      await page.getByRole('tab', { name: 'Уведомления' }).click();
      await expect(page).toHaveURL(/[?&]tab=notifications(&|$)/);
      await expect(page.getByText('Записей не найдено', { exact: true })).toBeVisible();
      await expect(page.getByRole('button', { name: 'Скачать Excel' })).toBeVisible();
      await expectNoAxeViolations(page);
    });

    await test.step('the device page follows the device live: last online moves without a reload', async () => {
      await page.goto(`/account/devices/${oven.id}`);
      const lastOnline = page.locator('dt', { hasText: 'Последний раз в сети' }).locator('+ dd');
      await expect(lastOnline).not.toHaveText('Никогда');
      const before = await lastOnline.textContent();
      await sendSamples(request, oven.credential, drawing(Date.now() + 4 * MINUTE, 5));
      await expect(lastOnline).not.toHaveText(before ?? '', { timeout: 15_000 });
      await page.getByRole('tab', { name: 'Сводка' }).click();
      await expect(page.getByRole('figure', { name: 'Ток сегодня, А' }).locator('canvas')).toBeVisible();
      await expect(page.getByRole('region', { name: 'Время работы за 7 дней' })).toBeVisible();
      await expectNoAxeViolations(page);
    });

    await test.step('the overview leads to the oven’s temperature report', async () => {
      await page.getByRole('link', { name: 'Отчёт по температуре' }).click();
      await expect(page).toHaveURL(new RegExp(`[?&]tab=temperature(&|$)`));
      await expect(page).toHaveURL(new RegExp(`[?&]devices=${oven.id}(&|$)`));
      await expect(page.getByRole('tab', { name: 'Отчёт по температуре', selected: true })).toBeVisible();
      const report = page.getByRole('region', { name: deviceName });
      await expect(report.getByText(/Диапазон его типа: 0…300 °C\./)).toBeVisible();
      await expect(page.getByRole('figure', { name: 'Средняя температура по часам, °C' })).toBeVisible();
      await expectNoAxeViolations(page);
    });
  });
});
