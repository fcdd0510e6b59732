import type {
  DeviceWithCredential,
  deviceBodySchema,
  devicesListQuerySchema,
  Filters,
  MessageKey,
} from '@kontrol/contracts';
import {
  DEVICE_LIMIT_REASONS,
  utcDay,
  type DeviceLimitReason,
  type DeviceLimitSettings,
  type DeviceLimits,
} from '@kontrol/contracts';
import type { Database } from '@kontrol/db';
import type { DeviceAccounts } from '@kontrol/domain';
import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { z } from 'zod';
import { randomSecret, safeEqual, sha256 } from '../../lib/crypto.js';
import { isUniqueViolation } from '../../lib/db-errors.js';
import { FieldValidationError, notFound } from '@kontrol/server-kit';
import { nowIso } from '../../lib/time.js';
import { findTemplate } from '../device-events/templates.repository.js';
import { applyFilters, listOrPage, type FilterWhitelist } from '../../lib/pagination.js';
import { deviceTypeExists } from '../device-types/device-types.repository.js';
import { deleteDeviceTelemetry } from '../telemetry/telemetry.repository.js';
import { toDevice } from './devices.presenter.js';
import {
  controllerIdTaken,
  deleteDevice as deleteDeviceRow,
  devicesQuery,
  findDevice,
  findDeviceCredential,
  findDeviceState,
  findDevicesLive,
  findIngestDays,
  findOrganisationRoom,
  insertDevice,
  orderDevices,
  organisationRoomIds,
  updateDevice as updateDeviceRow,
  whereDeviceMatches,
  whereRoomIn,
  whereSmart,
  type DeviceLiveRow,
  type DeviceRow,
  type DeviceSortField,
  type DevicesQuery,
} from './devices.repository.js';

export type DeviceInput = z.output<typeof deviceBodySchema>;

/** One device of the organisation, or 404. */
export async function getDevice(db: Kysely<Database>, organisationId: number, deviceId: number) {
  const row = await findDevice(db, organisationId, deviceId);
  if (!row) throw notFound();
  return toDevice(row);
}

export type DevicesListParams = z.output<typeof devicesListQuerySchema>;

/**
 * Gateway credentials (docs/places-and-equipment.md "Gateway credential"): `kdc_` and 32 random
 * bytes in base64url. Only the SHA-256 is stored, so the secret is shown once, when issued.
 */
export const DEVICE_CREDENTIAL_PREFIX = 'kdc_';
const CREDENTIAL_BYTES = 32;
const CREDENTIAL_MAX_LENGTH = 256;

/**
 * `filters[field]` of `GET /api/devices/` (docs/api.md). `address_id` is the room's, so it filters
 * a query of rooms; `is_smart` is derived and handled on its own (see `devicesListQuery`).
 */
export const DEVICE_FILTERS: FilterWhitelist = {
  id: { column: 'devices.id', type: 'number', operators: ['=', 'in'] },
  type_id: { column: 'devices.type_id', type: 'number', operators: ['=', 'in'] },
  room_id: { column: 'devices.room_id', type: 'number', operators: ['=', 'in'] },
  name: { column: 'devices.name', type: 'string', operators: ['like'] },
};
const ROOM_FILTERS: FilterWhitelist = {
  address_id: { column: 'rooms.address_id', type: 'number', operators: ['=', 'in'] },
};
const TRUE_VALUES: unknown[] = [true, 1, '1', 'true'];
const FALSE_VALUES: unknown[] = [false, 0, '0', 'false'];

function isSmart(device: { controller_id: string | null; template_id: number | null }) {
  return device.controller_id !== null || device.template_id !== null;
}

function newCredential() {
  const secret = `${DEVICE_CREDENTIAL_PREFIX}${randomSecret(CREDENTIAL_BYTES)}`;
  return { secret, hash: sha256(secret), issuedAt: nowIso() };
}

/** Collects a filter's 422 instead of throwing it, so every bad filter is reported at once. */
function collecting<T>(errors: Record<string, MessageKey[]>, build: () => T): T | undefined {
  try {
    return build();
  } catch (error) {
    if (!(error instanceof FieldValidationError)) throw error;
    Object.assign(errors, error.fields);
    return undefined;
  }
}

/** The organisation's devices with the list's search, filters and sort: the whole list, or a page of it. */
export function listDevices(
  db: Kysely<Database>,
  request: FastifyRequest,
  organisationId: number,
  { page, per_page: perPage, ...params }: DevicesListParams,
) {
  const query = devicesListQuery(db, organisationId, params);
  return listOrPage(request, query, { page, per_page: perPage }, toDevice);
}

/** How `listWholeFleet` reads its two parts: kept, or read each time. */
export interface WholeFleetSources {
  /** The devices as the list reads them: they change only with the fleet, but for their live fields. */
  rows?: (read: () => Promise<DeviceRow[]>) => Promise<DeviceRow[]>;
  /** What the gateway wrote last (`findDevicesLive`): read again far more often. */
  live?: (read: () => Promise<DeviceLiveRow[]>) => Promise<DeviceLiveRow[]>;
}

/**
 * The whole list without search, filters or sort (the console's reference data), as
 * `listDevices` answers it: the devices' rows with what the gateway wrote laid over their live
 * fields, so that a chain's 50 000 rows need not be read again for those.
 */
export async function listWholeFleet(
  db: Kysely<Database>,
  organisationId: number,
  sources: WholeFleetSources = {},
) {
  const readRows = () => devicesListQuery(db, organisationId, {}).execute();
  const readLive = () => findDevicesLive(db, organisationId);
  const [rows, live] = await Promise.all([
    sources.rows ? sources.rows(readRows) : readRows(),
    sources.live ? sources.live(readLive) : readLive(),
  ]);
  const liveOf = new Map(live.map((row) => [row.device_id, row]));
  return {
    data: rows.map((row) => {
      const written = liveOf.get(row.id);
      return toDevice({
        ...row,
        last_online_at: written?.last_online_at ?? null,
        work_start_date: written?.work_start_date ?? null,
        work_start_time: written?.work_start_time ?? null,
      });
    }),
  };
}

/**
 * The devices of an organisation with the list's search, whitelisted filters and sort applied.
 * `is_smart` is not a column, so it is checked here and turned into its condition; its errors
 * answer in the same 422 as the other filters'.
 */
export function devicesListQuery(
  db: Kysely<Database>,
  organisationId: number,
  params: Pick<DevicesListParams, 'filters' | 'search' | 'sort'>,
): DevicesQuery {
  const { is_smart: smartFilter, address_id: addressFilter, ...filters }: Filters = params.filters ?? {};
  const errors: Record<string, MessageKey[]> = {};
  let smart: boolean | undefined;
  if (smartFilter) {
    if (smartFilter.operator !== '=') errors['filters.is_smart'] = ['filter.operator'];
    else if (TRUE_VALUES.includes(smartFilter.value)) smart = true;
    else if (FALSE_VALUES.includes(smartFilter.value)) smart = false;
    else errors['filters.is_smart'] = ['filter.value'];
  }
  const rooms = addressFilter
    ? collecting(errors, () =>
        applyFilters(organisationRoomIds(db, organisationId), { address_id: addressFilter }, ROOM_FILTERS),
      )
    : undefined;
  let query = collecting(errors, () =>
    applyFilters(devicesQuery(db, organisationId), filters, DEVICE_FILTERS),
  );
  if (!query || Object.keys(errors).length > 0) throw new FieldValidationError(errors);
  if (rooms) query = whereRoomIn(query, rooms);
  if (smart !== undefined) query = whereSmart(query, smart);
  if (params.search) query = whereDeviceMatches(query, params.search);
  const sort = params.sort ?? 'name';
  const field = sort.replace(/^-/, '') as DeviceSortField;
  return orderDevices(query, field, sort.startsWith('-') ? 'desc' : 'asc');
}

/**
 * Rules the schema cannot check: the type exists, the room is one of the organisation's, and no
 * other device anywhere holds the controller id, and the current template is one of the
 * organisation's, for the device's type, and not tuned for another device.
 */
async function checkReferences(
  db: Kysely<Database>,
  organisationId: number,
  input: DeviceInput,
  exceptDeviceId?: number,
) {
  const [typeExists, room, taken, template] = await Promise.all([
    deviceTypeExists(db, input.type_id),
    findOrganisationRoom(db, organisationId, input.room_id),
    input.controller_id === null
      ? Promise.resolve(false)
      : controllerIdTaken(db, input.controller_id, exceptDeviceId),
    input.template_id === null
      ? Promise.resolve(undefined)
      : findTemplate(db, organisationId, input.template_id),
  ]);
  const errors: Record<string, MessageKey[]> = {};
  if (!typeExists) errors.type_id = ['field.exists'];
  if (!room) errors.room_id = ['field.exists'];
  if (taken) errors.controller_id = ['device.controller_taken'];
  if (input.template_id !== null) {
    if (!template) errors.template_id = ['field.exists'];
    else if (template.device_type_id !== input.type_id) errors.template_id = ['template.device_type'];
    else if (template.device_id !== null && template.device_id !== exceptDeviceId)
      errors.template_id = ['template.device_only'];
  }
  if (Object.keys(errors).length > 0) throw new FieldValidationError(errors);
}

/** Two saves racing for one controller id: the unique index stops the second; same 422. */
async function guardControllerRace<T>(save: () => Promise<T>): Promise<T> {
  try {
    return await save();
  } catch (error) {
    if (isUniqueViolation(error))
      throw new FieldValidationError({ controller_id: ['device.controller_taken'] });
    throw error;
  }
}

function columnsOf(input: DeviceInput) {
  return {
    name: input.name,
    type_id: input.type_id,
    room_id: input.room_id,
    serial_number: input.serial_number,
    controller_id: input.controller_id,
    template_id: input.template_id,
    shift_start: input.shift_start,
    wash_interval_hours: input.wash_interval_hours,
    service_interval_days: input.service_interval_days,
    next_service_date: input.next_service_date,
    notes: input.notes,
  };
}

async function presentDevice(
  db: Kysely<Database>,
  organisationId: number,
  deviceId: number,
  credential: string | null,
): Promise<DeviceWithCredential> {
  const row = await findDevice(db, organisationId, deviceId);
  if (!row) throw notFound();
  return { ...toDevice(row), credential };
}

/** Creates a device; a smart one gets its gateway credential, returned here and never again. */
export async function createDevice(
  db: Kysely<Database>,
  accounts: DeviceAccounts,
  organisationId: number,
  input: DeviceInput,
): Promise<DeviceWithCredential> {
  await checkReferences(db, organisationId, input);
  const credential = isSmart(input) ? newCredential() : undefined;
  const now = nowIso();
  const id = await db.transaction().execute(async (trx) => {
    const inserted = await guardControllerRace(() =>
      insertDevice(trx, {
        organisation_id: organisationId,
        ...columnsOf(input),
        credential_hash: credential?.hash ?? null,
        credential_issued_at: credential?.issuedAt ?? null,
        created_at: now,
        updated_at: now,
      }),
    );
    if (credential && input.controller_id) await accounts.issued(input.controller_id, credential.secret);
    return inserted;
  });
  return presentDevice(db, organisationId, id, credential?.secret ?? null);
}

/**
 * Replaces a device's fields. A device that becomes smart without a credential gets one (returned
 * once, as on create); one that stops being smart loses its credential, so a secret left on an
 * old controller stops working. Changing the controller id keeps the credential (rotate it when
 * the hardware changes hands), except with an external MQTT broker, whose accounts cannot be
 * renamed without the secret: there a new controller id gets a new credential.
 */
export async function updateDevice(
  db: Kysely<Database>,
  accounts: DeviceAccounts,
  organisationId: number,
  deviceId: number,
  input: DeviceInput,
): Promise<DeviceWithCredential> {
  const state = await findDeviceState(db, organisationId, deviceId);
  if (!state) throw notFound();
  await checkReferences(db, organisationId, input, deviceId);
  const smart = isSmart(input);
  const renamed = state.controller_id !== input.controller_id;
  const needsCredential =
    smart && (state.credential_hash === null || (renamed && accounts.renameNeedsNewCredential));
  const credential = needsCredential ? newCredential() : undefined;
  const credentialColumns = credential
    ? { credential_hash: credential.hash, credential_issued_at: credential.issuedAt }
    : smart
      ? {}
      : { credential_hash: null, credential_issued_at: null };
  await db.transaction().execute(async (trx) => {
    await guardControllerRace(() =>
      updateDeviceRow(trx, organisationId, deviceId, {
        ...columnsOf(input),
        ...credentialColumns,
        updated_at: nowIso(),
      }),
    );
    const hadAccount = state.controller_id !== null && state.credential_hash !== null;
    if (hadAccount && state.controller_id && (renamed || !smart)) await accounts.removed(state.controller_id);
    if (credential && input.controller_id) await accounts.issued(input.controller_id, credential.secret);
  });
  return presentDevice(db, organisationId, deviceId, credential?.secret ?? null);
}

/** Issues a new gateway credential; the previous one stops working at once. Smart devices only. */
export async function rotateDeviceCredential(
  db: Kysely<Database>,
  accounts: DeviceAccounts,
  organisationId: number,
  deviceId: number,
): Promise<DeviceWithCredential> {
  const state = await findDeviceState(db, organisationId, deviceId);
  if (!state) throw notFound();
  if (!isSmart(state)) throw new FieldValidationError({ controller_id: ['device.credential_not_smart'] });
  const credential = newCredential();
  await db.transaction().execute(async (trx) => {
    await updateDeviceRow(trx, organisationId, deviceId, {
      credential_hash: credential.hash,
      credential_issued_at: credential.issuedAt,
      updated_at: nowIso(),
    });
    if (state.controller_id) await accounts.issued(state.controller_id, credential.secret);
  });
  return presentDevice(db, organisationId, deviceId, credential.secret);
}

/** Deletes a device with its telemetry (samples and rollups have no foreign key to cascade). */
export async function deleteDevice(
  db: Kysely<Database>,
  accounts: DeviceAccounts,
  organisationId: number,
  deviceId: number,
) {
  const state = await findDeviceState(db, organisationId, deviceId);
  if (!state) throw notFound();
  await db.transaction().execute(async (trx) => {
    if (!(await deleteDeviceRow(trx, organisationId, deviceId))) throw notFound();
    await deleteDeviceTelemetry(trx, deviceId);
    if (state.controller_id && state.credential_hash) await accounts.removed(state.controller_id);
  });
}

/** Compared against when no device matches, so a miss costs the same as a wrong secret. */
const DECOY_HASH = sha256('kontrol: no such device');

/**
 * The gateway's check (docs/device-protocol.md): does `secret` belong to the device named by id (a number) or by
 * controller id (a string)? Hashes are compared in constant time. Answers the device and its
 * organisation, or null for an unknown device, a device without a credential or a wrong secret.
 */
export async function verifyDeviceCredential(
  db: Kysely<Database>,
  device: number | string,
  secret: string,
): Promise<{ deviceId: number; organisationId: number; controllerId: string | null } | null> {
  if (secret.length === 0 || secret.length > CREDENTIAL_MAX_LENGTH) return null;
  const row = await findDeviceCredential(db, device);
  const stored = row?.credential_hash ?? DECOY_HASH;
  const matches = safeEqual(sha256(secret), stored);
  if (!row || row.credential_hash === null || !matches) return null;
  return { deviceId: row.id, organisationId: row.organisation_id, controllerId: row.controller_id };
}

/** Days of a device's traffic shown on its connection tab. */
const LIMIT_DAYS_SHOWN = 7;

/**
 * `GET /api/devices/{id}/limits` (docs/device-protocol.md, "Limits"): the limits in force and what
 * the device sent and had refused on each of its last 7 UTC days that it sent anything.
 */
export async function deviceLimits(
  db: Kysely<Database>,
  limits: DeviceLimitSettings,
  organisationId: number,
  deviceId: number,
  now = Date.now(),
): Promise<DeviceLimits> {
  if (!(await findDeviceState(db, organisationId, deviceId))) throw notFound();
  const days = await findIngestDays(
    db,
    organisationId,
    deviceId,
    utcDay(now - (LIMIT_DAYS_SHOWN - 1) * 86_400_000),
  );
  return {
    limits: {
      connections: limits.maxConnections,
      in_flight: limits.maxInFlight,
      samples_per_second: limits.samplesPerSecond,
      burst_samples: limits.burstSamples,
      samples_per_day: limits.samplesPerDay,
    },
    days: days.map((row) => ({
      day: row.day,
      samples: Number(row.samples),
      refused: Number(row.refused),
      last_refused_at:
        row.last_refused_ts === null ? null : new Date(Number(row.last_refused_ts)).toISOString(),
      last_reason: (DEVICE_LIMIT_REASONS as readonly string[]).includes(row.last_reason ?? '')
        ? (row.last_reason as DeviceLimitReason)
        : null,
    })),
  };
}
