import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { seedFixtures, type Fixtures } from '../test-support/server.mjs';
import {
  chooseLanguage,
  databaseUrl,
  expect,
  postCreated,
  signInWithApi,
  test,
  xsrfToken,
  createSmartOven,
  everyMinute,
  MINUTE,
  sendSamples,
} from './support/fixtures';

/**
 * The downloads as a reader's Excel opens them (docs/telemetry.md, "Downloads"), in a real browser:
 * an oven at a Yekaterinburg address (UTC+5) sends three hours of samples and has two events that
 * notified its admin, one of them read. The telemetry CSV comes as the screen shows it (minutes)
 * or as raw samples, in Russian (`;`, decimal commas, Russian words) and then in English (`,`);
 * the notifications' Excel file has Russian words, "read" filled and the address's times. Each
 * file is parsed back.
 */

const YEKATERINBURG = 5 * 60 * MINUTE;

/** `YYYY-MM-DD HH:MM:SS` of `ts` in Yekaterinburg (UTC+5 all year). */
const yekaterinburg = (ts: number) =>
  new Date(ts + YEKATERINBURG).toISOString().slice(0, 19).replace('T', ' ');

/** Clicks a download button and reads the saved file. */
async function download(page: Page, button: string) {
  const downloaded = page.waitForEvent('download');
  await page.getByRole('button', { name: button }).click();
  const file = await downloaded;
  return { name: file.suggestedFilename(), bytes: await readFile(await file.path()) };
}

test.describe('downloads', () => {
  test.describe.configure({ timeout: 90_000 });

  const unique = `-downloads-${Date.now().toString(36)}-${process.pid}`;
  const deviceName = `Печь; зал ${unique}`;
  let org: Fixtures;

  test.beforeAll(() => {
    org = seedFixtures({ databaseUrl: databaseUrl(), suffix: unique });
  });

  test('the telemetry CSV and the notifications Excel read back in the interface language', async ({
    page,
    request,
  }) => {
    await signInWithApi(page, org.admin);
    const first = Date.now() - 180 * MINUTE;
    let ovenId = 0;

    await test.step('an oven in Yekaterinburg with three hours of samples and two events', async () => {
      const oven = await createSmartOven(page, {
        cafe: `Кафе ${unique}`,
        fullAddress: 'Екатеринбург, ул. Вайнера, 9',
        city: 'Екатеринбург',
        timeZone: 'Asia/Yekaterinburg',
        name: deviceName,
        controllerId: `kc${unique}`,
      });
      ovenId = oven.id;
      const samples = everyMinute(180, first + 179 * MINUTE, (i) => ({
        current: 12.5,
        temperature: 160,
        door_open: i === 0,
        state: i === 0 ? 'idle' : 'cooking',
      }));
      await sendSamples(request, oven.credential, samples);

      const read = await postCreated<{ id: number }>(page, '/api/devices/events/add', {
        device_id: oven.id,
        severity: 'critical',
        title: `Прочитанное ${unique}`,
      });
      const marked = await page.request.post('/api/notifications/read', {
        data: {},
        headers: { 'X-XSRF-TOKEN': await xsrfToken(page.context()), Accept: 'application/json' },
      });
      expect(marked.status(), await marked.text()).toBe(200);
      expect(read.id).toBeGreaterThan(0);
      await postCreated(page, '/api/devices/events/add', {
        device_id: oven.id,
        severity: 'warning',
        title: `Новое ${unique}`,
      });
    });

    await test.step('the CSV as the screen shows it: minutes, `;`, decimal commas, the address time', async () => {
      await page.goto(`/account/telemetry?devices=${ovenId}&period=24h`);
      await expect(page.getByText('Детализация: Минуты')).toBeVisible();
      await expect(page.getByRole('combobox', { name: 'Содержимое CSV' })).toHaveValue(
        'Как на экране: Минуты',
      );
      const file = await download(page, 'Скачать CSV');
      expect(file.name).toMatch(/^telemetry_minute_\d{4}-\d{2}-\d{2}_\d{4}-\d{2}-\d{2}\.csv$/);
      expect([...file.bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
      const table: string[][] = parse(file.bytes, { bom: true, delimiter: ';' });
      const [header, ...rows] = table;
      expect(header?.slice(0, 6)).toEqual([
        '№ устройства',
        'Устройство',
        'Время',
        'Смещение от UTC',
        'Замеров',
        'Ток средний, А',
      ]);
      expect(rows).toHaveLength(180);
      expect(rows[0]?.slice(1, 6)).toEqual([
        deviceName,
        `${yekaterinburg(first - (first % MINUTE))}`,
        'UTC+05:00',
        '1',
        '12,5',
      ]);
    });

    await test.step('the raw samples when chosen: a row each, states and door in words', async () => {
      await page.getByRole('combobox', { name: 'Содержимое CSV' }).click();
      await page.getByRole('option', { name: 'Исходные замеры' }).click();
      const file = await download(page, 'Скачать CSV');
      expect(file.name).toMatch(/^telemetry_\d{4}-\d{2}-\d{2}_\d{4}-\d{2}-\d{2}\.csv$/);
      const rows = parse<Record<string, string>>(file.bytes, { bom: true, delimiter: ';', columns: true });
      expect(rows).toHaveLength(180);
      expect(rows[0]).toMatchObject({
        Устройство: deviceName,
        Время: yekaterinburg(first),
        'Смещение от UTC': 'UTC+05:00',
        'Ток, А': '12,5',
        'Температура, °C': '160',
        'Дверь открыта': 'да',
        Состояние: 'Ожидание',
      });
      expect(rows[1]).toMatchObject({ 'Дверь открыта': 'нет', Состояние: 'Готовка' });
    });

    await test.step('the notifications Excel: Russian words, "read" filled, the address times', async () => {
      await page.getByRole('tab', { name: 'Уведомления' }).click();
      const file = await download(page, 'Скачать Excel');
      expect(file.name).toMatch(/^notifications_\d{4}-\d{2}-\d{2}\.xlsx$/);
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load(file.bytes as unknown as ArrayBuffer);
      const sheet = workbook.getWorksheet('Уведомления');
      if (!sheet) throw new Error('no sheet named Уведомления');
      expect(sheet.getRow(1).values).toEqual([
        undefined,
        'Время',
        'Смещение от UTC',
        'Важность',
        'Вид',
        'Заголовок',
        'Текст',
        'Устройство',
        'Прочитано',
        'Время прочтения',
      ]);
      const rows = new Map<string, ExcelJS.Row>();
      sheet.eachRow((row, number) => {
        const title = row.getCell(5).value;
        if (number > 1 && typeof title === 'string') rows.set(title, row);
      });
      const read = rows.get(`Прочитанное ${unique}`);
      const unread = rows.get(`Новое ${unique}`);
      expect([2, 3, 4, 7, 8].map((cell) => read?.getCell(cell).value)).toEqual([
        'UTC+05:00',
        'Авария',
        'Записано вручную',
        deviceName,
        'да',
      ]);
      expect(read?.getCell(9).value).toBeInstanceOf(Date);
      expect([3, 8].map((cell) => unread?.getCell(cell).value)).toEqual(['Предупреждение', 'нет']);
      // An Excel date holds the wall-clock time at the address: within minutes of now in Yekaterinburg.
      const shown = (unread?.getCell(1).value as Date).getTime();
      expect(Math.abs(shown - (Date.now() + YEKATERINBURG))).toBeLessThan(10 * MINUTE);
    });

    await test.step('in English: commas, decimal points and English words', async () => {
      await chooseLanguage(page, 'en');
      await page.getByRole('tab', { name: 'Telemetry' }).click();
      await expect(page.getByRole('combobox', { name: 'CSV contents' })).toBeVisible();
      await page.getByRole('combobox', { name: 'CSV contents' }).click();
      await page.getByRole('option', { name: 'Raw samples' }).click();
      const file = await download(page, 'Download CSV');
      const rows = parse<Record<string, string>>(file.bytes, { bom: true, columns: true });
      expect(rows).toHaveLength(180);
      expect(rows[1]).toMatchObject({
        Device: deviceName,
        'UTC offset': 'UTC+05:00',
        'Current, A': '12.5',
        'Door open': 'no',
        State: 'Cooking',
      });
    });
  });
});
