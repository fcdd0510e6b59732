import type { TelemetryAnswer, TelemetrySampleInput } from '@kontrol/contracts';
import { describe, expect, it } from 'vitest';
import { buildOrganisation, buildSmartDevice, buildUser } from '../../test/builders.js';
import { TestClient } from '../../test/http-client.js';
import { useTestApp } from '../../test/test-app.js';

const t = useTestApp();
const MINUTE = 60_000;
const HOUR = 3_600_000;

const sample = (ts: number, extra: Partial<TelemetrySampleInput> = {}): TelemetrySampleInput => ({
  ts,
  current: 1,
  temperature: 20,
  door_open: false,
  state: 'idle',
  ...extra,
});

async function ingest(credential: string, samples: TelemetrySampleInput[]) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/ingest/v1/telemetry',
    headers: { authorization: `Bearer ${credential}`, 'content-type': 'application/json' },
    payload: JSON.stringify(samples),
  });
  expect(res.statusCode).toBe(202);
}

/** Yesterday in Moscow (UTC+3, no daylight saving): the date and the moment it began. */
function yesterdayInMoscow() {
  const date = new Date(Date.now() + 3 * HOUR - 86_400_000).toISOString().slice(0, 10);
  return { date, start: Date.parse(`${date}T00:00:00+03:00`) };
}

/** An organisation with a combi oven in Moscow that worked yesterday 08:05–10:00 local, and its admin signed in. */
async function setup() {
  const org = await buildOrganisation(t.db);
  const device = await buildSmartDevice(t.db, org.organisationId, { timeZone: 'Europe/Moscow' });
  const day = yesterdayInMoscow();
  const at = (hours: number, minutes: number) => day.start + hours * HOUR + minutes * MINUTE;
  const samples: TelemetrySampleInput[] = [];
  // Idle every minute 07:00–08:04, heating 08:05–08:29, cooking 08:30–10:00, idle to 10:30.
  for (let m = 7 * 60; m <= 10 * 60 + 30; m += 1) {
    const state = m < 8 * 60 + 5 ? 'idle' : m < 8 * 60 + 30 ? 'heating' : m <= 10 * 60 ? 'cooking' : 'idle';
    const working = state === 'heating' || state === 'cooking';
    samples.push(
      sample(at(0, m), {
        state,
        current: working ? 20 : 1,
        temperature: working ? 180 : 30,
      }),
    );
  }
  // A gap of 20 minutes, then 10:50–10:55 online again.
  for (let m = 10 * 60 + 50; m <= 10 * 60 + 55; m += 1) samples.push(sample(at(0, m)));
  await ingest(device.credential, samples);
  const client = new TestClient(t.app);
  await client.login(org.admin.email, org.admin.password);
  return { org, device, client, day, at };
}

describe('GET /api/telemetry/', () => {
  it('answers raw samples, paged, as columns per device', async () => {
    const { device, client, at } = await setup();
    const url = (extra: string) =>
      `/api/telemetry/?devices=${device.id}&start=${at(8, 0)}&finish=${at(8, 10)}&metrics=current,state${extra}`;
    const all = (await client.get(url(''))).json<TelemetryAnswer>();
    expect(all.data.resolution).toBe('raw'); // auto: 10 minutes
    const [series] = all.data.series;
    expect(series?.t).toHaveLength(10);
    expect(series?.values.current?.slice(4, 6)).toEqual([1, 20]); // 08:04 idle, 08:05 heating
    expect(series?.values.state?.slice(4, 6)).toEqual([1, 2]);
    const page = (await client.get(url('&per_page=4&page=3'))).json<TelemetryAnswer>();
    expect(page.data.series[0]?.t).toHaveLength(2);
    expect(page.meta).toEqual({ current_page: 3, per_page: 4, has_more: false });
  });

  it('answers minute, hour and day rollups: means, extremes and working shares', async () => {
    const { device, client, at, day } = await setup();
    const hourly = (
      await client.get(
        `/api/telemetry/?devices=${device.id}&start=${at(7, 0)}&finish=${at(11, 0)}&resolution=hour&metrics=current,working`,
      )
    ).json<TelemetryAnswer>();
    const [series] = hourly.data.series;
    expect(series?.t).toEqual([at(7, 0), at(8, 0), at(9, 0), at(10, 0)]);
    // 08:00–08:59: 5 idle minutes at 1 A, 55 working at 20 A.
    expect(series?.values.current?.[1]).toBeCloseTo((5 * 1 + 55 * 20) / 60);
    expect(series?.values.current_max?.[1]).toBe(20);
    expect(series?.values.working?.[1]).toBeCloseTo(55 / 60);

    const daily = (
      await client.get(
        `/api/telemetry/?devices=${device.id}&start=${day.start}&finish=${day.start + 86_400_000}&resolution=day&tz=Europe/Moscow&metrics=temperature`,
      )
    ).json<TelemetryAnswer>();
    expect(daily.data.series[0]?.t).toEqual([day.start]);
    expect(daily.data.series[0]?.values.temperature_max).toEqual([180]);
    expect(daily.data.series[0]?.values.temperature_min).toEqual([20]);
  });

  it("refuses another organisation's device, a bad period, and a user without the telemetry module", async () => {
    const { client, at } = await setup();
    const other = await buildOrganisation(t.db);
    const theirs = await buildSmartDevice(t.db, other.organisationId);
    const foreign = await client.get(
      `/api/telemetry/?devices=${theirs.id}&start=${at(8, 0)}&finish=${at(9, 0)}`,
    );
    expect(foreign.statusCode).toBe(422);
    expect(Object.keys(foreign.json<{ errors: object }>().errors)).toEqual(['devices']);
    const backwards = await client.get(
      `/api/telemetry/?devices=${theirs.id}&start=${at(9, 0)}&finish=${at(8, 0)}`,
    );
    expect(backwards.statusCode).toBe(422);
    const badMoment = await client.get(`/api/telemetry/?devices=1&start=yesterday&finish=${at(8, 0)}`);
    expect(Object.keys(badMoment.json<{ errors: object }>().errors)).toEqual(['start']);

    const mine = await buildOrganisation(t.db);
    const user = await buildUser(t.db, mine.organisationId, { modules: ['devices'] });
    const limited = new TestClient(t.app);
    await limited.login(user.email, user.password);
    expect(
      (await limited.get(`/api/telemetry/?devices=1&start=${at(8, 0)}&finish=${at(9, 0)}`)).statusCode,
    ).toBe(403);
  });
});

describe('device reports', () => {
  it('gives online and offline intervals with a gap of more than 5 minutes', async () => {
    const { device, client, at } = await setup();
    const res = await client.get(
      `/api/devices/info/last_online?id=${device.id}&start=${at(6, 0)}&finish=${at(12, 0)}`,
    );
    const iso = (ms: number) => new Date(ms).toISOString();
    expect(res.json<{ data: { intervals: unknown[] } }>().data.intervals).toEqual([
      { start: iso(at(6, 0)), finish: iso(at(7, 0)), online: false },
      { start: iso(at(7, 0)), finish: iso(at(10, 31)), online: true },
      { start: iso(at(10, 31)), finish: iso(at(10, 50)), online: false },
      { start: iso(at(10, 50)), finish: iso(at(10, 56)), online: true },
      { start: iso(at(10, 56)), finish: iso(at(12, 0)), online: false },
    ]);
  });

  it('reports worktime and temperature per local day', async () => {
    const { device, client, day } = await setup();
    const worktime = await client.get(
      `/api/devices/reports/worktime?start=${day.date}&finish=${day.date}&ids=${device.id}`,
    );
    expect(worktime.json()).toEqual({
      data: [{ device_id: device.id, date: day.date, start: '08:05', end: '10:00', worked_minutes: 116 }],
    });
    const temperature = await client.get(
      `/api/devices/reports/temp?start=${day.date}&finish=${day.date}&ids=${device.id}`,
    );
    const [row] = temperature.json<{ data: { min: number; avg: number; max: number }[] }>().data;
    expect(row).toMatchObject({ min: 20, max: 180 });
    // Without ids: every device of the organisation (here one), days without data included.
    const twoDays = await client.get(
      `/api/devices/reports/worktime?start=${day.date}&finish=${nextDay(day.date)}`,
    );
    expect(twoDays.json<{ data: { worked_minutes: number }[] }>().data.map((r) => r.worked_minutes)).toEqual([
      116, 0,
    ]);
  });

  it('lists wash cycles and says whether washing is overdue', async () => {
    const org = await buildOrganisation(t.db);
    const washer = await buildSmartDevice(t.db, org.organisationId, { typeSlug: 'dishwasher' });
    const start = Date.now() - 30 * HOUR;
    const run = Array.from({ length: 10 }, (_, k) =>
      sample(start + k * 2 * MINUTE, { state: 'washing', current: 12 }),
    );
    await ingest(washer.credential, [...run, sample(start + 20 * MINUTE)]);
    const client = new TestClient(t.app);
    await client.login(org.admin.email, org.admin.password);
    const res = await client.get(
      `/api/devices/reports/wash?id=${washer.id}&start=${start - HOUR}&finish=${Date.now()}`,
    );
    expect(res.json()).toMatchObject({
      data: {
        id: washer.id,
        wash_interval_hours: 24,
        last_completed: new Date(start + 20 * MINUTE).toISOString(),
        outdated: true, // 30 hours ago, the dishwasher's interval is 24
        cycles: [{ minutes: 20, outcome: 'completed' }],
        running_since: null,
      },
    });
  });

  it("answers 404 or 422 for another organisation's device, reading nothing of it", async () => {
    const { client, day, at } = await setup();
    const other = await buildOrganisation(t.db);
    const theirs = await buildSmartDevice(t.db, other.organisationId);
    expect(
      (await client.get(`/api/devices/info/last_online?id=${theirs.id}&start=${at(6, 0)}&finish=${at(7, 0)}`))
        .statusCode,
    ).toBe(404);
    expect(
      (await client.get(`/api/devices/reports/wash?id=${theirs.id}&start=${at(6, 0)}&finish=${at(7, 0)}`))
        .statusCode,
    ).toBe(404);
    const report = await client.get(
      `/api/devices/reports/worktime?start=${day.date}&finish=${day.date}&ids=${theirs.id}`,
    );
    expect(report.statusCode).toBe(422);
  });
});

function nextDay(date: string) {
  return new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
}
