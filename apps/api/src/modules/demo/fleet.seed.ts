import { DEFAULT_WORK_TIME, type WorkTime } from '@kontrol/contracts';
import type { Database } from '@kontrol/db';
import { sql, type Insertable, type Kysely } from 'kysely';
import { nowIso } from '../../lib/time.js';
import { seedHistory } from './fleet-history.seed.js';

/**
 * A realistic fleet for an organisation: addresses in several Russian cities (each with its own
 * time zone), kitchen rooms, and devices of every seeded type. Used by the demo, by
 * `npm run kontrol -- seed:fleet` (load tests, benchmarks, browser tests with 10 000 devices).
 * Deterministic: the same options give the same names, so figures and screenshots compare.
 */
export interface FleetOptions {
  devices: number;
  /** Default: one address per 25 devices, at least 1. */
  addresses?: number;
  /** Share of devices with a controller (smart), 0–1. Default 0.6. */
  smartShare?: number;
  /** Days of rollups for the smart devices, today included (fleet-history.seed.ts). Default 0. */
  historyDays?: number;
}

export interface FleetSummary {
  addresses: number;
  rooms: number;
  devices: number;
  /** Rollup rows written: hourly and daily. */
  history: { hours: number; days: number };
}

const CITIES = [
  {
    city: 'Москва',
    zone: 'Europe/Moscow',
    streets: ['Тверская ул.', 'ул. Арбат', 'Новый Арбат', 'ул. Покровка'],
  },
  {
    city: 'Санкт-Петербург',
    zone: 'Europe/Moscow',
    streets: ['Невский пр.', 'ул. Рубинштейна', 'Литейный пр.'],
  },
  { city: 'Казань', zone: 'Europe/Moscow', streets: ['ул. Баумана', 'ул. Пушкина'] },
  { city: 'Екатеринбург', zone: 'Asia/Yekaterinburg', streets: ['ул. Вайнера', 'пр. Ленина'] },
  { city: 'Новосибирск', zone: 'Asia/Novosibirsk', streets: ['Красный пр.', 'ул. Ленина'] },
  { city: 'Калининград', zone: 'Europe/Kaliningrad', streets: ['Ленинский пр.', 'ул. Театральная'] },
  { city: 'Владивосток', zone: 'Asia/Vladivostok', streets: ['ул. Светланская', 'ул. Алеутская'] },
] as const;

const ROOMS = [
  { name: 'Горячий цех', floor: '1' },
  { name: 'Холодный цех', floor: '1' },
  { name: 'Моечная', floor: '1' },
  { name: 'Склад', floor: '-1' },
] as const;

/** Which types go to which room, and the model names written on them. */
const MODELS: Record<string, { room: number; models: string[] }> = {
  combi_oven: {
    room: 0,
    models: ['Rational iCombi Pro 10-1/1', 'Rational iCombi Pro 6-1/1', 'Unox Cheftop Mind.Maps'],
  },
  convection_oven: { room: 0, models: ['Unox Bakerlux Shop.Pro', 'Abat КЭП-4'] },
  fryer: { room: 0, models: ['Frima VF 20', 'Hurakan HKN-FT'] },
  induction_hob: { room: 0, models: ['Hendi 239 759', 'Abat КИП-4'] },
  dishwasher: { room: 2, models: ['Winterhalter PT-M', 'Meiko M-iClean'] },
  refrigerator: { room: 1, models: ['Polair CM107-S', 'Liebherr FKvsl 4113'] },
  freezer: { room: 3, models: ['Polair CB107-S', 'Liebherr GGv 5060'] },
  blast_chiller: { room: 1, models: ['Irinox EasyFresh Next', 'Hurakan HKN-BCF5'] },
  other: { room: 3, models: ['Вакуумный упаковщик', 'Слайсер'] },
};

/** Mulberry32: a tiny seeded PRNG, so the fleet is the same on every run. */
function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const CHUNK = 500;

async function insertChunked<T extends 'addresses' | 'rooms' | 'devices'>(
  db: Kysely<Database>,
  table: T,
  rows: Insertable<Database[T]>[],
): Promise<number[]> {
  const ids: number[] = [];
  for (let start = 0; start < rows.length; start += CHUNK) {
    const inserted = await db
      .insertInto(table)
      .values(rows.slice(start, start + CHUNK) as never)
      .returning('id')
      .execute();
    ids.push(...inserted.map((row) => (row as { id: number }).id));
  }
  return ids;
}

/** Adds a fleet to the organisation in one transaction; returns what it added. */
export async function seedFleet(
  db: Kysely<Database>,
  organisationId: number,
  options: FleetOptions,
): Promise<FleetSummary> {
  const deviceCount = Math.max(0, Math.floor(options.devices));
  const addressCount = Math.max(1, options.addresses ?? Math.ceil(deviceCount / 25));
  const smartShare = options.smartShare ?? 0.6;
  const next = random(organisationId * 7919 + deviceCount);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)] as T;
  const now = nowIso();

  return db.transaction().execute(async (trx) => {
    const types = await trx.selectFrom('device_types').select(['id', 'slug']).orderBy('position').execute();
    const addressRows = Array.from({ length: addressCount }, (_, index) => {
      const place = CITIES[index % CITIES.length] ?? CITIES[0];
      const street = pick(place.streets);
      const house = 1 + Math.floor(next() * 120);
      const lateSite = index % 5 === 4;
      const workTime: WorkTime = lateSite
        ? {
            ...DEFAULT_WORK_TIME,
            fri: { open: '10:00', close: '02:00' },
            sat: { open: '10:00', close: '02:00' },
          }
        : { ...DEFAULT_WORK_TIME, sun: index % 3 === 0 ? null : DEFAULT_WORK_TIME.sun };
      return {
        organisation_id: organisationId,
        name: `Ресторан №${index + 1}, ${place.city}`,
        full_address: `г. ${place.city}, ${street}, д. ${house}`,
        city: place.city,
        time_zone: place.zone,
        work_time: JSON.stringify(workTime),
        latitude: null,
        longitude: null,
        created_at: now,
        updated_at: now,
      };
    });
    const addressIds = await insertChunked(trx, 'addresses', addressRows);

    const roomRows = addressIds.flatMap((addressId) =>
      ROOMS.map((room) => ({
        organisation_id: organisationId,
        address_id: addressId,
        name: room.name,
        floor: room.floor,
        description: null,
        created_at: now,
        updated_at: now,
      })),
    );
    const roomIds = await insertChunked(trx, 'rooms', roomRows);

    const deviceRows = Array.from({ length: deviceCount }, (_, index) => {
      const type = types[index % types.length] ?? types[0];
      if (!type) throw new Error('device types are not seeded: run the migrations first');
      const spec = MODELS[type.slug] ?? { room: 3, models: ['Оборудование'] };
      const addressIndex = index % addressIds.length;
      const roomId = roomIds[addressIndex * ROOMS.length + spec.room] as number;
      const smart = next() < smartShare;
      const hour = 6 + Math.floor(next() * 4);
      return {
        organisation_id: organisationId,
        room_id: roomId,
        type_id: type.id,
        name: `${pick(spec.models)} №${Math.floor(index / addressIds.length) + 1}`,
        serial_number: `SN-${organisationId}-${String(index + 1).padStart(6, '0')}`,
        controller_id: smart ? `kc-${organisationId}-${String(index + 1).padStart(6, '0')}` : null,
        template_id: null,
        shift_start: smart ? `${String(hour).padStart(2, '0')}:${next() < 0.5 ? '00' : '30'}` : null,
        wash_interval_hours: null,
        service_interval_days: next() < 0.5 ? 90 : 180,
        next_service_date: null,
        notes: null,
        credential_hash: null,
        credential_issued_at: null,
        created_at: now,
        updated_at: now,
      };
    });
    const deviceIds = await insertChunked(trx, 'devices', deviceRows);

    // A current template per type, watching nine in ten of its smart devices (the tenth shows up
    // as "without norm" on the dashboard).
    for (const type of types) {
      const template = DEMO_TEMPLATES[type.slug];
      if (!template) continue;
      const row = await trx
        .insertInto('device_event_templates')
        .values({
          organisation_id: organisationId,
          name: template.name,
          description: null,
          device_type_id: type.id,
          device_id: null,
          norms: JSON.stringify(template.norms),
          rules: JSON.stringify(template.rules),
          created_at: now,
          updated_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await trx
        .updateTable('devices')
        .set({ template_id: row.id })
        .where('organisation_id', '=', organisationId)
        .where('type_id', '=', type.id)
        .where('controller_id', 'is not', null)
        .where(sql<number>`id % 10`, '<>', 0)
        .execute();
    }
    const history =
      deviceIds.length > 0
        ? await seedHistory(trx, organisationId, {
            firstDeviceId: deviceIds.reduce((a, b) => Math.min(a, b)),
            lastDeviceId: deviceIds.reduce((a, b) => Math.max(a, b)),
            days: options.historyDays ?? 0,
          })
        : { hours: 0, days: 0 };
    return { addresses: addressIds.length, rooms: roomIds.length, devices: deviceRows.length, history };
  });
}

const band = (min: number, max: number) => ({ min, max });
const FAULT_RULES = [
  { key: 'fault', kind: 'error_code', codes: [], severity: 'critical', duration_minutes: 0 },
  { key: 'silent', kind: 'no_data', severity: 'warning', duration_minutes: 60 },
];
const HEATING_RULES = [
  ...FAULT_RULES,
  { key: 'overload', kind: 'current_above', state: 'heating', severity: 'critical', duration_minutes: 5 },
  { key: 'door', kind: 'door_open_while_heating', severity: 'warning', duration_minutes: 10 },
];

/** The demo's current templates: generous bands around what the simulator's models draw. */
const DEMO_TEMPLATES: Record<string, { name: string; norms: object; rules: object[] } | undefined> = {
  combi_oven: {
    name: 'Пароконвектомат — норма',
    norms: { idle: band(0, 4), heating: band(8, 60), cooking: band(0, 60), washing: band(1, 40) },
    rules: [
      ...HEATING_RULES,
      {
        key: 'long_wash',
        kind: 'state_too_long',
        state: 'washing',
        severity: 'warning',
        duration_minutes: 240,
      },
    ],
  },
  convection_oven: {
    name: 'Конвекционная печь — норма',
    norms: { idle: band(0, 3), heating: band(5, 40), cooking: band(0, 40), washing: null },
    rules: HEATING_RULES,
  },
  fryer: {
    name: 'Фритюрница — норма',
    norms: { idle: band(0, 3), heating: band(5, 35), cooking: band(0, 35), washing: null },
    rules: HEATING_RULES,
  },
  dishwasher: {
    name: 'Посудомоечная машина — норма',
    norms: { idle: band(0, 4), heating: band(2, 45), cooking: null, washing: band(1, 45) },
    rules: [
      ...FAULT_RULES,
      {
        key: 'long_wash',
        kind: 'state_too_long',
        state: 'washing',
        severity: 'warning',
        duration_minutes: 180,
      },
    ],
  },
  refrigerator: {
    name: 'Холодильный шкаф — норма',
    norms: { idle: band(0, 8), heating: null, cooking: null, washing: null },
    rules: FAULT_RULES,
  },
  freezer: {
    name: 'Морозильный шкаф — норма',
    norms: { idle: band(0, 8), heating: null, cooking: null, washing: null },
    rules: FAULT_RULES,
  },
  blast_chiller: {
    name: 'Шкаф шоковой заморозки — норма',
    norms: { idle: band(0, 15), heating: null, cooking: null, washing: null },
    rules: FAULT_RULES,
  },
};
