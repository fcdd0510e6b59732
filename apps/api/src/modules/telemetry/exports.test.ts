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

describe('GET /api/telemetry/csv', () => {
  it('streams every raw sample of the period, in chunks, readable by a CSV parser', async () => {
    const org = await buildOrganisation(t.db);
    const device = await buildSmartDevice(t.db, org.organisationId);
    await t.db
      .updateTable('devices')
      .set({ name: 'Печь "Север", зал 1' })
      .where('id', '=', device.id)
      .execute();
    const now = Date.now();
    const start = now - (now % 3_600_000) - 10 * 86_400_000;
    // 25 000 samples, one a second: more than two export chunks.
    const total = 25_000;
    for (let from = 0; from < total; from += 5_000) {
      await ingest(
        device.credential,
        Array.from({ length: 5_000 }, (_, k) => ({
          ts: start + (from + k) * 1000,
          current: (from + k) % 10,
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
    );
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(
      /^attachment; filename="telemetry_\d{4}-\d{2}-\d{2}_\d{4}-\d{2}-\d{2}\.csv"/,
    );
    const rows = parse<Record<string, string>>(res.rawPayload, { bom: true, columns: true });
    expect(rows).toHaveLength(total);
    expect(rows[0]).toMatchObject({
      device_id: String(device.id),
      device: 'Печь "Север", зал 1',
      time: new Date(start + 3 * 3_600_000).toISOString().slice(0, 19) + '+03:00',
      current_a: '0',
      temperature_c: '180',
      door_open: '1',
      state: 'cooking',
    });
    expect(rows[7]?.program).toBe('\'=HYPERLINK("http://evil")'); // not a formula in a spreadsheet
    expect(rows[total - 1]?.current_a).toBe(String((total - 1) % 10));
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
    extra: Partial<{ severity: 'info' | 'warning' | 'critical'; title: string; created_at: string }> = {},
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
        device_id: null,
        event_id: null,
        created_at: extra.created_at ?? new Date().toISOString(),
        read_at: null,
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

  it('exports them to an .xlsx that exceljs reads back, times in the asked zone', async () => {
    const org = await buildOrganisation(t.db, { locale: 'ru' });
    await notify(org.admin.id, org.organisationId, {
      title: '=cmd|"/c calc"!A0',
      created_at: '2026-11-02T10:00:00.000Z',
    });
    await notify(org.admin.id, org.organisationId, {
      title: 'Мойка просрочена',
      created_at: '2026-11-03T10:00:00.000Z',
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
      'Важность',
      'Вид',
      'Заголовок',
      'Текст',
      'Оборудование',
      'Прочитано',
    ]);
    const second = sheet?.getRow(2);
    expect(second?.getCell(4).value).toBe('Мойка просрочена');
    expect((second?.getCell(1).value as Date).toISOString()).toBe('2026-11-03T15:00:00.000Z'); // 10:00 UTC is 15:00 there
    // Exactly as stored: an inline string is never a formula (docs/security.md, "Exports").
    expect(sheet?.getRow(3).getCell(4).value).toBe('=cmd|"/c calc"!A0');
    expect(sheet?.getRow(3).getCell(4).type).toBe(ExcelJS.ValueType.String);
    expect(sheet?.rowCount).toBe(3);
  });
});
