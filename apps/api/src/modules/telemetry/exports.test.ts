import type { Notification, TelemetrySampleInput } from '@kontrol/contracts';
import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { buildOrganisation, buildSmartDevice, buildUser } from '../../test/builders.js';
import { TestClient } from '../../test/http-client.js';
import { useTestApp } from '../../test/test-app.js';

const t = useTestApp();

async function ingest(credential: string, samples: TelemetrySampleInput[]) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/ingest/v1/telemetry',
    headers: { authorization: `Bearer ${credential}`, 'content-type': 'application/json' },
    payload: JSON.stringify(samples),
  });
  expect(res.statusCode).toBe(202);
}

async function signedIn(org: { admin: { email: string; password: string } }) {
  const client = new TestClient(t.app);
  await client.login(org.admin.email, org.admin.password);
  return client;
}

const HOUR = 3_600_000;

describe('GET /api/telemetry/csv', () => {
  it('streams every raw sample of the period, in chunks, for a Russian Excel: `;`, decimal commas, words, the address time', async () => {
    const org = await buildOrganisation(t.db);
    // The address is in Yekaterinburg (UTC+5); the reader's browser is in Moscow.
    const device = await buildSmartDevice(t.db, org.organisationId, { timeZone: 'Asia/Yekaterinburg' });
    await t.db
      .updateTable('devices')
      .set({ name: 'Печь "Север"; зал 1' })
      .where('id', '=', device.id)
      .execute();
    const now = Date.now();
    const start = now - (now % HOUR) - 10 * 86_400_000;
    // 25 000 samples, one a second: more than two export chunks.
    const total = 25_000;
    for (let from = 0; from < total; from += 5_000) {
      await ingest(
        device.credential,
        Array.from({ length: 5_000 }, (_, k) => ({
          ts: start + (from + k) * 1000,
          current: ((from + k) % 10) + 0.5,
          temperature: 180,
          door_open: k % 2 === 0,
          state: 'cooking',
          ...(from + k === 7 ? { program: '=HYPERLINK("http://evil")' } : {}),
        })),
      );
    }
    const client = await signedIn(org);
    const res = await client.get(
      `/api/telemetry/csv?devices=${device.id}&start=${start}&finish=${start + total * 1000}&tz=Europe/Moscow`,
      { 'accept-language': 'ru' },
    );
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(
      /^attachment; filename="telemetry_\d{4}-\d{2}-\d{2}_\d{4}-\d{2}-\d{2}\.csv"/,
    );
    expect(res.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf])); // the BOM
    const table: string[][] = parse(res.rawPayload, { bom: true, delimiter: ';' });
    const [header, ...rows] = table;
    expect(header).toEqual([
      '№ устройства',
      'Устройство',
      'Время',
      'Смещение от UTC',
      'Ток, А',
      'Температура, °C',
      'Дверь открыта',
      'Состояние',
      'Программа',
      'Код ошибки',
      'Температура в сердцевине, °C',
      'Влажность, %',
    ]);
    expect(rows).toHaveLength(total);
    const local = new Date(start + 5 * HOUR).toISOString();
    expect(rows[0]).toEqual([
      String(device.id),
      'Печь "Север"; зал 1',
      `${local.slice(0, 10)} ${local.slice(11, 19)}`,
      'UTC+05:00',
      '0,5',
      '180',
      'да',
      'Готовка',
      '',
      '',
      '',
      '',
    ]);
    expect(rows[1]?.[6]).toBe('нет');
    expect(rows[7]?.[8]).toBe('\'=HYPERLINK("http://evil")'); // not a formula in a spreadsheet
    expect(rows[total - 1]?.[4]).toBe(`${(total - 1) % 10},5`);
  });

  it('writes English with commas and decimal points for an English reader', async () => {
    const org = await buildOrganisation(t.db);
    // São Paulo keeps UTC-3 all year.
    const device = await buildSmartDevice(t.db, org.organisationId, { timeZone: 'America/Sao_Paulo' });
    const ts = Math.floor(Date.now() / HOUR) * HOUR - HOUR;
    const local = new Date(ts - 3 * HOUR).toISOString();
    await ingest(device.credential, [
      { ts, current: 12.25, temperature: -3.5, door_open: false, state: 'washing' },
    ]);
    const client = await signedIn(org);
    const res = await client.get(
      `/api/telemetry/csv?devices=${device.id}&start=${ts - HOUR}&finish=${ts + HOUR}`,
      { 'accept-language': 'en' },
    );
    expect(res.statusCode).toBe(200);
    const rows = parse<Record<string, string>>(res.rawPayload, { bom: true, columns: true });
    expect(rows).toEqual([
      {
        'Device ID': String(device.id),
        Device: expect.any(String) as string,
        Time: `${local.slice(0, 10)} ${local.slice(11, 19)}`,
        'UTC offset': 'UTC-03:00',
        'Current, A': '12.25',
        'Temperature, °C': '-3.5',
        'Door open': 'no',
        State: 'Washing',
        Program: '',
        'Error code': '',
        'Core temperature, °C': '',
        'Humidity, %': '',
      },
    ]);
  });

  it('writes the resolution the screen shows: a row per device and hour, minute or local day', async () => {
    const org = await buildOrganisation(t.db);
    const device = await buildSmartDevice(t.db, org.organisationId, { timeZone: 'Asia/Yekaterinburg' });
    // 10:00 yesterday in Yekaterinburg (UTC+5 all year).
    const today = Math.floor((Date.now() + 5 * HOUR) / 86_400_000) * 86_400_000 - 5 * HOUR;
    const hour = today - 86_400_000 + 10 * HOUR;
    const date = new Date(hour + 5 * HOUR).toISOString().slice(0, 10);
    // Two hours, a sample every 10 minutes: the first hour cooking at 10 A and 200 °C, the second idle.
    const samples = Array.from({ length: 12 }, (_, k) => ({
      ts: hour + k * 600_000,
      current: k < 6 ? 10 : 1,
      temperature: k < 6 ? 200 : 50.5,
      door_open: k === 0,
      state: k < 6 ? ('cooking' as const) : ('idle' as const),
    }));
    await ingest(device.credential, samples);
    const client = await signedIn(org);
    const csv = async (resolution: string) => {
      const res = await client.get(
        `/api/telemetry/csv?devices=${device.id}&start=${hour}&finish=${hour + 2 * HOUR}&resolution=${resolution}&tz=Europe/Moscow`,
        { 'accept-language': 'ru' },
      );
      expect(res.statusCode, res.body).toBe(200);
      const rows: string[][] = parse(res.rawPayload, { bom: true, delimiter: ';' });
      return { res, rows };
    };

    const hours = await csv('hour');
    expect(hours.res.headers['content-disposition']).toMatch(
      new RegExp(`filename="telemetry_hour_${date}_${date}\\.csv"`),
    );
    expect(hours.rows[0]).toEqual([
      '№ устройства',
      'Устройство',
      'Время',
      'Смещение от UTC',
      'Замеров',
      'Ток средний, А',
      'Ток минимальный, А',
      'Ток максимальный, А',
      'Температура средняя, °C',
      'Температура минимальная, °C',
      'Температура максимальная, °C',
      'В работе, %',
      'Дверь открыта, %',
    ]);
    expect(hours.rows.slice(1).map((row) => row.slice(2))).toEqual([
      [`${date} 10:00:00`, 'UTC+05:00', '6', '10', '10', '10', '200', '200', '200', '100', '16,7'],
      [`${date} 11:00:00`, 'UTC+05:00', '6', '1', '1', '1', '50,5', '50,5', '50,5', '0', '0'],
    ]);

    const minutes = await csv('minute');
    expect(minutes.rows).toHaveLength(1 + 12);
    expect(minutes.rows[1]?.slice(2, 5)).toEqual([`${date} 10:00:00`, 'UTC+05:00', '1']);

    const days = await csv('day');
    expect(days.rows.slice(1).map((row) => row.slice(2, 6))).toEqual([
      [`${date} 00:00:00`, 'UTC+05:00', '12', '5,5'],
    ]);
    // `auto` picks as the page does: two hours are raw samples.
    expect((await csv('auto')).rows).toHaveLength(1 + 12);
  });

  it("answers 422 before any byte for another organisation's device", async () => {
    const org = await buildOrganisation(t.db);
    const other = await buildOrganisation(t.db);
    const theirs = await buildSmartDevice(t.db, other.organisationId);
    const client = await signedIn(org);
    const res = await client.get(
      `/api/telemetry/csv?devices=${theirs.id}&start=${Date.now() - 3_600_000}&finish=${Date.now()}`,
    );
    expect(res.statusCode).toBe(422);
    expect(res.headers['content-disposition']).toBeUndefined();
  });
});

describe('notifications', () => {
  async function notify(
    userId: number,
    organisationId: number,
    extra: Partial<{
      severity: 'info' | 'warning' | 'critical';
      title: string;
      created_at: string;
      occurred_at: string;
      device_id: number;
      read_at: string;
    }> = {},
  ) {
    await t.db
      .insertInto('notifications')
      .values({
        organisation_id: organisationId,
        user_id: userId,
        kind: 'current_above',
        severity: extra.severity ?? 'warning',
        title: extra.title ?? 'Ток выше нормы',
        body: 'Печь №1: 42 А при норме до 30 А',
        device_id: extra.device_id ?? null,
        event_id: null,
        created_at: extra.created_at ?? new Date().toISOString(),
        occurred_at: extra.occurred_at ?? null,
        read_at: extra.read_at ?? null,
      })
      .execute();
  }

  it("lists the user's own notifications, newest first, paged and filtered", async () => {
    const org = await buildOrganisation(t.db);
    const colleague = await buildUser(t.db, org.organisationId, { modules: [] });
    const other = await buildOrganisation(t.db);
    await notify(org.admin.id, org.organisationId, {
      title: 'first',
      created_at: '2026-11-01T10:00:00.000Z',
    });
    await notify(org.admin.id, org.organisationId, {
      title: 'second',
      severity: 'critical',
      created_at: '2026-11-02T10:00:00.000Z',
    });
    await notify(colleague.id, org.organisationId, { title: 'colleague' });
    await notify(other.admin.id, other.organisationId, { title: 'other organisation' });
    const client = await signedIn(org);
    const page = (await client.get('/api/notifications?page=1')).json<{
      data: Notification[];
      meta: { total: number };
    }>();
    expect(page.data.map((n) => n.title)).toEqual(['second', 'first']);
    expect(page.meta.total).toBe(2);
    const critical = await client.get(
      `/api/notifications?page=1&filters[severity][operator]==&filters[severity][value]=critical`,
    );
    expect(critical.json<{ data: Notification[] }>().data.map((n) => n.title)).toEqual(['second']);
    const badFilter = await client.get(
      `/api/notifications?page=1&filters[user_id][operator]==&filters[user_id][value]=1`,
    );
    expect(badFilter.statusCode).toBe(422);
  });

  it('exports them to an .xlsx that exceljs reads back: words in the reader’s language, times at the device’s address', async () => {
    const org = await buildOrganisation(t.db, { locale: 'ru' });
    const oven = await buildSmartDevice(t.db, org.organisationId, { timeZone: 'Asia/Novosibirsk' });
    await notify(org.admin.id, org.organisationId, {
      title: '=cmd|"/c calc"!A0',
      created_at: '2026-11-02T10:00:00.000Z',
    });
    await notify(org.admin.id, org.organisationId, {
      title: 'Мойка просрочена',
      severity: 'critical',
      // The event began 20 minutes before the notification was written: the sheet shows its start.
      occurred_at: '2026-11-03T09:40:00.000Z',
      created_at: '2026-11-03T10:00:00.000Z',
      device_id: oven.id,
      read_at: '2026-11-03T11:30:00.000Z',
    });
    const client = await signedIn(org);
    const res = await client.get('/api/notifications/excel?tz=Asia/Yekaterinburg', {
      'accept-language': 'ru',
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toMatch(/notifications_\d{4}-\d{2}-\d{2}\.xlsx/);
    const workbook = new ExcelJS.Workbook();
    // exceljs types a plain Node 18 Buffer; the bytes are the same.
    await workbook.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.getWorksheet('Уведомления');
    expect(sheet?.getRow(1).values).toEqual([
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
    // The device's notification: its address is in Novosibirsk (UTC+7), read an hour and a half later.
    const second = sheet?.getRow(2);
    expect((second?.getCell(1).value as Date).toISOString()).toBe('2026-11-03T16:40:00.000Z'); // 09:40 UTC is 16:40 there
    expect(second?.getCell(2).value).toBe('UTC+07:00');
    expect(second?.getCell(3).value).toBe('Авария');
    expect(second?.getCell(4).value).toBe('Ток выше нормы');
    expect(second?.getCell(5).value).toBe('Мойка просрочена');
    expect(second?.getCell(8).value).toBe('да');
    expect((second?.getCell(9).value as Date).toISOString()).toBe('2026-11-03T18:30:00.000Z');
    // Without a device: the reader's zone; unread.
    const third = sheet?.getRow(3);
    expect((third?.getCell(1).value as Date).toISOString()).toBe('2026-11-02T15:00:00.000Z');
    expect(third?.getCell(2).value).toBe('UTC+05:00');
    expect(third?.getCell(3).value).toBe('Предупреждение');
    expect(third?.getCell(8).value).toBe('нет');
    expect(third?.getCell(9).value).toBeNull();
    // Exactly as stored: an inline string is never a formula (docs/security.md, "Exports").
    expect(third?.getCell(5).value).toBe('=cmd|"/c calc"!A0');
    expect(third?.getCell(5).type).toBe(ExcelJS.ValueType.String);
    expect(sheet?.rowCount).toBe(3);

    const english = await client.get('/api/notifications/excel?tz=UTC', { 'accept-language': 'en' });
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(english.rawPayload as unknown as ArrayBuffer);
    const row = book.getWorksheet('Notifications')?.getRow(2);
    expect([3, 4, 8].map((cell) => row?.getCell(cell).value)).toEqual([
      'Critical',
      'Current above the norm',
      'yes',
    ]);
  });
});
