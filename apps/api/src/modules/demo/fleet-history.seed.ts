import { zoneOffsetMs } from '@kontrol/contracts';
import { dialectOf, type Database } from '@kontrol/db';
import { sql, type Kysely } from 'kysely';

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
/** Kitchens work 08:00–22:00 local time in the seeded history: 14 hourly rows a day. */
const OPEN_HOUR = 8;
const WORKING_HOURS = 14;
/** At most this many days of history (a month is what the reports and the dashboard look back on). */
export const HISTORY_MAX_DAYS = 92;

export interface HistoryOptions {
  /** The seeded devices: those with ids in this range (the ones a seed:fleet call added). */
  firstDeviceId: number;
  lastDeviceId: number;
  /** Days back from today, today included (its hours up to now). */
  days: number;
  now?: number;
}

/**
 * The rollups a month of the gateway's work would have left for the smart devices of a seeded
 * fleet (`seed:fleet --days`): an hourly row per device and working hour (`telemetry_hour`), and
 * the local days they sum to (`telemetry_day`), so the worktime and temperature reports, the
 * dashboard's charts and the benchmarks see a chain's history without a month of samples.
 * Deterministic (values follow from the device id, the day and the hour), and written by the
 * database itself (`insert … select` over a generated series), one statement per time zone:
 * a month of 30 000 smart devices is some 12 million hourly rows.
 */
export async function seedHistory(
  db: Kysely<Database>,
  organisationId: number,
  options: HistoryOptions,
): Promise<{ hours: number; days: number }> {
  const days = Math.max(0, Math.min(HISTORY_MAX_DAYS, Math.floor(options.days)));
  if (days === 0) return { hours: 0, days: 0 };
  const now = options.now ?? Date.now();
  const zones = await db
    .selectFrom('devices')
    .innerJoin('rooms', 'rooms.id', 'devices.room_id')
    .innerJoin('addresses', 'addresses.id', 'rooms.address_id')
    .select('addresses.time_zone')
    .distinct()
    .where('devices.organisation_id', '=', organisationId)
    .where('devices.id', '>=', options.firstDeviceId)
    .where('devices.id', '<=', options.lastDeviceId)
    .execute();
  const postgres = dialectOf(db) === 'postgres';
  let hours = 0;
  let dayRows = 0;
  for (const { time_zone: zone } of zones) {
    // The seeded cities' zones have no daylight saving time: one offset per zone.
    const offset = zoneOffsetMs(now, zone);
    const today = Math.floor((now + offset) / DAY_MS) * DAY_MS - offset;
    const first = today - (days - 1) * DAY_MS;
    const devicesOfZone = sql`devices.organisation_id = ${organisationId}
      and devices.id between ${options.firstDeviceId} and ${options.lastDeviceId}
      and devices.controller_id is not null
      and devices.room_id in (select rooms.id from rooms join addresses on addresses.id = rooms.address_id
                               where addresses.time_zone = ${zone})`;
    // Minutes worked in an hour, 20 to 60, and the state counts, as the gateway sums them from
    // one sample a minute; ovens and chillers hold their temperatures, the rest report none.
    const worked = sql`(20 + (devices.id * 7 + d * 3 + h * 11) % 41)`;
    const bucket = sql`${first} + cast(d as bigint) * ${DAY_MS} + cast(${OPEN_HOUR} + h as bigint) * ${HOUR_MS}`;
    const heated = sql`device_types.slug in ('combi_oven', 'convection_oven')`;
    const cooled = sql`device_types.slug in ('refrigerator', 'blast_chiller')`;
    const frozen = sql`device_types.slug = 'freezer'`;
    const temperature = sql`case when ${heated} then 160 + (devices.id + h) % 40
      when ${cooled} then 2 + (devices.id + h) % 4 when ${frozen} then -20 + (devices.id + h) % 3 end`;
    const inserted = await sql`
      insert into telemetry_hour (device_id, bucket, samples, current_sum, current_min, current_max,
        temperature_samples, temperature_sum, temperature_min, temperature_max,
        working, washing, fault, door_open, working_minutes, first_working_ts, last_working_ts)
      with recursive days(d) as (select 0 union all select d + 1 from days where d < ${days - 1}),
        hours(h) as (select 0 union all select h + 1 from hours where h < ${WORKING_HOURS - 1})
      select devices.id, ${bucket}, 60,
        ${worked} * (6 + devices.id % 10) + (60 - ${worked}) * 0.5, 0.5, 8 + devices.id % 10,
        case when ${temperature} is null then 0 else 60 end, coalesce(60 * ${temperature}, 0),
        ${temperature} - 1, ${temperature} + 1,
        ${worked},
        case when device_types.slug = 'dishwasher' and h % 4 = 3 then 15 else 0 end,
        case when (devices.id * 13 + d * 7 + h) % 97 = 0 then 3 else 0 end,
        h % 3,
        ${worked}, ${bucket} + (60 - ${worked}) * 60000, ${bucket} + ${HOUR_MS} - 60000
      from devices join device_types on device_types.id = devices.type_id, days, hours
      where ${devicesOfZone} and ${bucket} + ${HOUR_MS} <= ${now}`.execute(db);
    hours += Number(inserted.numAffectedRows ?? 0);

    const localDate = postgres
      ? sql`to_char(to_timestamp((bucket + ${offset}) / 1000) at time zone 'UTC', 'YYYY-MM-DD')`
      : sql`strftime('%Y-%m-%d', (bucket + ${offset}) / 1000, 'unixepoch')`;
    const summed = await sql`
      insert into telemetry_day (device_id, date, samples, working_minutes, first_working_ts,
        last_working_ts, temperature_samples, temperature_sum, temperature_min, temperature_max)
      select device_id, ${localDate}, sum(samples), sum(working_minutes), min(first_working_ts),
        max(last_working_ts), sum(temperature_samples), sum(temperature_sum), min(temperature_min),
        max(temperature_max)
      from telemetry_hour
      where bucket >= ${first} and device_id in (select devices.id from devices where ${devicesOfZone})
      group by 1, 2`.execute(db);
    dayRows += Number(summed.numAffectedRows ?? 0);
  }
  return { hours, days: dayRows };
}
