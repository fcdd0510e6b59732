import type { Database } from '@kontrol/db';
import type { Kysely } from 'kysely';

/**
 * SQL of recipe delivery (docs/device-protocol.md, "Recipes"): the binds of `device_recipe_binds`
 * as the dispatcher and the device's HTTP routes read and move them. Every state change that can
 * race (several gateways, a deploy in an API process, a device's report) is a conditional UPDATE
 * on the state it expects, so the database decides who wins.
 */

/** A device with binds to send (queued) or to remove (not yet told, or told too long ago). */
export interface DueDevice {
  id: number;
  controllerId: string;
}

/** Most devices one pass of the dispatcher looks at. */
const DUE_DEVICES_LIMIT = 10_000;
/** Ids per statement: well inside both dialects' parameter limits. */
const CHUNK = 500;

export async function dueDevices(db: Kysely<Database>, resendBeforeTs: number): Promise<DueDevice[]> {
  // From the binds (their index on state and device), not from every device: most have none due.
  const rows = await db
    .selectFrom('devices')
    .select(['devices.id', 'devices.controller_id'])
    .where('devices.id', 'in', (eb) =>
      eb
        .selectFrom('device_recipe_binds as b')
        .select('b.device_id')
        .where((inner) =>
          inner.or([
            inner('b.state', '=', 'queued'),
            inner.and([
              inner('b.state', '=', 'removing'),
              inner.or([inner('b.sent_ts', 'is', null), inner('b.sent_ts', '<', resendBeforeTs)]),
            ]),
          ]),
        ),
    )
    .where('devices.controller_id', 'is not', null)
    .where('devices.credential_hash', 'is not', null)
    .orderBy('devices.id')
    .limit(DUE_DEVICES_LIMIT)
    .execute();
  return rows.map((row) => ({ id: row.id, controllerId: row.controller_id as string }));
}

/** The last `status` message of each of these devices (JSON text), where there is one. */
export async function lastStatuses(
  db: Kysely<Database>,
  deviceIds: readonly number[],
): Promise<Map<number, string>> {
  const statuses = new Map<number, string>();
  for (let start = 0; start < deviceIds.length; start += CHUNK) {
    const rows = await db
      .selectFrom('device_live')
      .select(['device_id', 'status'])
      .where('device_id', 'in', deviceIds.slice(start, start + CHUNK))
      .where('status', 'is not', null)
      .execute();
    for (const row of rows) statuses.set(row.device_id, row.status as string);
  }
  return statuses;
}

/** Deliveries told and not reported on within the timeout: failed (`timeout`). */
export async function timeOutSending(db: Kysely<Database>, sentBeforeTs: number, nowIso: string) {
  const result = await db
    .updateTable('device_recipe_binds')
    .set({ state: 'failed', error: 'timeout', updated_at: nowIso })
    .where('state', '=', 'sending')
    .where('sent_ts', '<', sentBeforeTs)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/**
 * Queued binds whose recipe changed since they were queued take its current version: what has
 * not been sent yet goes out as the recipe is now.
 */
export async function refreshQueued(db: Kysely<Database>, deviceId: number, nowIso: string) {
  const stale = await db
    .selectFrom('device_recipe_binds as b')
    .innerJoin('recipes as r', 'r.id', 'b.recipe_id')
    .select(['b.id', 'r.version', 'r.crc', 'r.size'])
    .where('b.device_id', '=', deviceId)
    .where('b.state', '=', 'queued')
    .whereRef('b.version', '!=', 'r.version')
    .execute();
  for (const row of stale) {
    await db
      .updateTable('device_recipe_binds')
      .set({ version: row.version, crc: row.crc, size: row.size, updated_at: nowIso })
      .where('id', '=', row.id)
      .where('state', '=', 'queued')
      .execute();
  }
}

/** Takes the device's queued binds for one command: `sending` from `sentTs`, one attempt more. */
export function claimQueued(db: Kysely<Database>, deviceId: number, sentTs: number, nowIso: string) {
  return db
    .updateTable('device_recipe_binds')
    .set((eb) => ({
      state: 'sending',
      sent_ts: sentTs,
      attempts: eb('attempts', '+', 1),
      error: null,
      reported_crc: null,
      updated_at: nowIso,
    }))
    .where('device_id', '=', deviceId)
    .where('state', '=', 'queued')
    .returning(['id', 'recipe_id', 'version', 'crc', 'size'])
    .execute();
}

/** Takes the device's removals that were never told, or told before `resendBeforeTs`. */
export function claimRemovals(
  db: Kysely<Database>,
  deviceId: number,
  resendBeforeTs: number,
  sentTs: number,
  nowIso: string,
) {
  return db
    .updateTable('device_recipe_binds')
    .set((eb) => ({ sent_ts: sentTs, attempts: eb('attempts', '+', 1), updated_at: nowIso }))
    .where('device_id', '=', deviceId)
    .where('state', '=', 'removing')
    .where((eb) => eb.or([eb('sent_ts', 'is', null), eb('sent_ts', '<', resendBeforeTs)]))
    .returning(['id', 'recipe_id', 'version'])
    .execute();
}

/** A command that could not be published: its binds go back to where they were (no attempt made). */
export async function releaseClaims(
  db: Kysely<Database>,
  claimed: { installIds: number[]; removeIds: number[] },
  sentTs: number,
  nowIso: string,
) {
  if (claimed.installIds.length > 0)
    await db
      .updateTable('device_recipe_binds')
      .set((eb) => ({ state: 'queued', sent_ts: null, attempts: eb('attempts', '-', 1), updated_at: nowIso }))
      .where('id', 'in', claimed.installIds)
      .where('state', '=', 'sending')
      .where('sent_ts', '=', sentTs)
      .execute();
  if (claimed.removeIds.length > 0)
    await db
      .updateTable('device_recipe_binds')
      .set((eb) => ({ sent_ts: null, attempts: eb('attempts', '-', 1), updated_at: nowIso }))
      .where('id', 'in', claimed.removeIds)
      .where('state', '=', 'removing')
      .where('sent_ts', '=', sentTs)
      .execute();
}

/** One bind of a device with what its program file is made of; undefined when it is not the device's. */
export function bindOfDevice(db: Kysely<Database>, deviceId: number, bindId: number) {
  return db
    .selectFrom('device_recipe_binds as b')
    .innerJoin('recipes as r', 'r.id', 'b.recipe_id')
    .innerJoin('device_types as t', 't.id', 'r.device_type_id')
    .select([
      'b.id',
      'b.state',
      'b.error',
      'b.version',
      'b.crc',
      'b.recipe_id',
      'r.version as recipe_version',
      'r.name',
      'r.steps',
      't.slug as type',
    ])
    .where('b.id', '=', bindId)
    .where('b.device_id', '=', deviceId)
    .executeTakeFirst();
}

/** A report's outcome, applied only while the bind is in one of `from` (a deploy may have moved it). */
export async function settleBind(
  db: Kysely<Database>,
  bindId: number,
  from: readonly ('sending' | 'failed' | 'installed')[],
  outcome: { state: 'installed' | 'failed'; error: string | null; reported_crc: string | null },
  nowIso: string,
) {
  const result = await db
    .updateTable('device_recipe_binds')
    .set({ ...outcome, updated_at: nowIso })
    .where('id', '=', bindId)
    .where('state', 'in', from)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** The device deleted a file it was told to remove: the bind is gone. */
export async function deleteRemovedBind(db: Kysely<Database>, bindId: number) {
  const result = await db
    .deleteFrom('device_recipe_binds')
    .where('id', '=', bindId)
    .where('state', '=', 'removing')
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
