import type { TelemetrySampleInput, TemperatureReportDay } from '@kontrol/contracts';
import { describe, expect, it } from 'vitest';
import { buildOrganisation, buildSmartDevice, buildUser } from '../../test/builders.js';
import { TestClient } from '../../test/http-client.js';
import { useTestApp } from '../../test/test-app.js';

const t = useTestApp();
const MINUTE = 60_000;
const HOUR = 3_600_000;

async function ingest(credential: string, samples: TelemetrySampleInput[]) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/ingest/v1/telemetry',
    headers: { authorization: `Bearer ${credential}`, 'content-type': 'application/json' },
    payload: JSON.stringify(samples),
  });
  expect(res.statusCode).toBe(202);
}

/** One sample a minute from `start` for `minutes` minutes at `temperature`. */
const minutes = (start: number, count: number, temperature: number): TelemetrySampleInput[] =>
  Array.from({ length: count }, (_, i) => ({
    ts: start + i * MINUTE,
    current: 4,
    temperature,
    door_open: false,
    state: 'idle',
  }));

async function signedIn(email: string, password: string) {
  const client = new TestClient(t.app);
  await client.login(email, password);
  return client;
}

describe('GET /api/devices/reports/temp?detail=hours (the temperature report)', () => {
  it('gives each day its hours and the minutes outside the type’s range', async () => {
    const org = await buildOrganisation(t.db);
    const fridge = await buildSmartDevice(t.db, org.organisationId, {
      typeSlug: 'refrigerator',
      timeZone: 'UTC',
    });
    const hob = await buildSmartDevice(t.db, org.organisationId, {
      typeSlug: 'induction_hob',
      timeZone: 'UTC',
    });
    const date = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    const midnight = Date.parse(`${date}T00:00:00Z`);
    // 10:00–10:09 at 3 °C (inside 0–5), 10:10–10:19 at 8 °C (above), 11:00–11:04 at −1 °C (below).
    await ingest(fridge.credential, [
      ...minutes(midnight + 10 * HOUR, 10, 3),
      ...minutes(midnight + 10 * HOUR + 10 * MINUTE, 10, 8),
      ...minutes(midnight + 11 * HOUR, 5, -1),
    ]);
    await ingest(hob.credential, minutes(midnight + 9 * HOUR, 3, 40));

    // A telemetry page's user reads it too.
    const reader = await buildUser(t.db, org.organisationId, { modules: ['telemetry'] });
    const client = await signedIn(reader.email, reader.password);
    const res = await client.get(
      `/api/devices/reports/temp?start=${date}&finish=${date}&ids=${fridge.id},${hob.id}&detail=hours`,
    );
    expect(res.statusCode, res.body).toBe(200);
    const [fridgeDay, hobDay] = res.json<{ data: TemperatureReportDay[] }>().data;
    expect(fridgeDay).toEqual({
      device_id: fridge.id,
      date,
      min: -1,
      avg: 4.2,
      max: 8,
      range: { min: 0, max: 5 },
      outside_minutes: 15,
      hours: [
        {
          start: new Date(midnight + 10 * HOUR).toISOString(),
          min: 3,
          avg: 5.5,
          max: 8,
          outside_minutes: 10,
        },
        {
          start: new Date(midnight + 11 * HOUR).toISOString(),
          min: -1,
          avg: -1,
          max: -1,
          outside_minutes: 5,
        },
      ],
    });
    // An induction hob has no temperature range: nothing is outside it.
    expect(hobDay).toMatchObject({
      device_id: hob.id,
      range: null,
      outside_minutes: null,
      hours: [{ start: new Date(midnight + 9 * HOUR).toISOString(), outside_minutes: null }],
    });

    // Without `detail`, the day rows as before (docs/telemetry.md).
    const plain = await client.get(`/api/devices/reports/temp?start=${date}&finish=${date}&ids=${fridge.id}`);
    expect(plain.json()).toEqual({ data: [{ device_id: fridge.id, date, min: -1, avg: 4.2, max: 8 }] });
  });

  it('needs ids, a few devices and at most 31 days for the hours, and the organisation’s devices', async () => {
    const org = await buildOrganisation(t.db);
    const fridge = await buildSmartDevice(t.db, org.organisationId, { typeSlug: 'refrigerator' });
    const client = await signedIn(org.admin.email, org.admin.password);
    const theirs = await buildSmartDevice(t.db, (await buildOrganisation(t.db)).organisationId);
    const ask = (query: string) => client.get(`/api/devices/reports/temp?${query}&detail=hours`);
    expect((await ask('start=2026-11-01&finish=2026-11-02')).statusCode).toBe(422);
    expect((await ask(`start=2026-10-01&finish=2026-11-02&ids=${fridge.id}`)).statusCode).toBe(422);
    expect((await ask(`start=2026-11-01&finish=2026-11-02&ids=${theirs.id}`)).statusCode).toBe(422);
    const ok = await ask(`start=2026-11-01&finish=2026-11-02&ids=${fridge.id}`);
    expect(ok.statusCode).toBe(200);
    expect(ok.json<{ data: TemperatureReportDay[] }>().data.map((day) => [day.date, day.hours])).toEqual([
      ['2026-11-01', []],
      ['2026-11-02', []],
    ]);
  });
});
