import type { EventDetails, EventRule } from '@kontrol/contracts';
import type { Database } from '@kontrol/db';
import { sql, type Kysely, type Transaction } from 'kysely';

/**
 * The SQL of device events, templates' rules and their state, for the gateway's rules engine
 * (docs/events.md). An event's notifications are written by `notifyEvent` of @kontrol/domain,
 * which the API uses too.
 */

type Db = Kysely<Database> | Transaction<Database>;

export interface TemplateRow {
  id: number;
  norms: string;
  rules: string;
}

/** The devices among `ids` that have a template, with it and whether their type reports its state. */
export async function templatedDevices(db: Db, ids: readonly number[]) {
  const rows = [];
  for (let start = 0; start < ids.length; start += 500) {
    const chunk = ids.slice(start, start + 500);
    rows.push(
      ...(await db
        .selectFrom('devices')
        .innerJoin('device_event_templates as t', 't.id', 'devices.template_id')
        .innerJoin('device_types', 'device_types.id', 'devices.type_id')
        .select([
          'devices.id',
          'devices.organisation_id',
          'devices.name',
          't.id as template_id',
          't.norms',
          't.rules',
          'device_types.telemetry',
        ])
        .where('devices.id', 'in', chunk)
        .where('t.organisation_id', '=', sql.ref<number>('devices.organisation_id'))
        .execute()),
    );
  }
  return rows;
}
export type TemplatedDevice = Awaited<ReturnType<typeof templatedDevices>>[number];

/** Devices with a template holding a `no_data` rule, with their newest sample's time. */
export async function noDataCandidates(db: Db) {
  return db
    .selectFrom('devices')
    .innerJoin('device_event_templates as t', 't.id', 'devices.template_id')
    .innerJoin('device_types', 'device_types.id', 'devices.type_id')
    .innerJoin('device_live', 'device_live.device_id', 'devices.id')
    .select([
      'devices.id',
      'devices.organisation_id',
      'devices.name',
      't.id as template_id',
      't.norms',
      't.rules',
      'device_types.telemetry',
      'device_live.last_ts',
    ])
    .where('t.rules', 'like', '%"no_data"%')
    .where('device_live.last_ts', 'is not', null)
    .where('t.organisation_id', '=', sql.ref<number>('devices.organisation_id'))
    .execute();
}

/**
 * The devices' rule states, locked for this transaction on PostgreSQL (another gateway working
 * on the same device waits); missing rows are created first so there is something to lock.
 */
export async function lockRuleStates(
  trx: Transaction<Database>,
  ids: readonly number[],
  postgres: boolean,
  now: number,
) {
  const states = new Map<number, Record<string, number>>();
  for (let start = 0; start < ids.length; start += 500) {
    const chunk = ids.slice(start, start + 500);
    await trx
      .insertInto('device_rule_state')
      .values(chunk.map((id) => ({ device_id: id, template_id: null, conditions: '{}', updated_ts: now })))
      .onConflict((oc) => oc.column('device_id').doNothing())
      .execute();
    let query = trx
      .selectFrom('device_rule_state')
      .select(['device_id', 'conditions'])
      .where('device_id', 'in', chunk)
      .orderBy('device_id');
    if (postgres) query = query.forUpdate();
    for (const row of await query.execute())
      states.set(row.device_id, JSON.parse(row.conditions) as Record<string, number>);
  }
  return states;
}

export async function saveRuleState(
  trx: Db,
  deviceId: number,
  templateId: number,
  conditions: Record<string, number>,
  now: number,
) {
  await trx
    .updateTable('device_rule_state')
    .set({ template_id: templateId, conditions: JSON.stringify(conditions), updated_ts: now })
    .where('device_id', '=', deviceId)
    .execute();
}

/** The condition keys of each device's open rule events. */
export async function openConditions(db: Db, ids: readonly number[]) {
  const open = new Map<number, Set<string>>();
  for (let start = 0; start < ids.length; start += 500) {
    const rows = await db
      .selectFrom('device_events')
      .select(['device_id', 'condition_key'])
      .where('device_id', 'in', ids.slice(start, start + 500))
      .where('ended_ts', 'is', null)
      .where('condition_key', 'is not', null)
      .execute();
    for (const row of rows) {
      let set = open.get(row.device_id);
      if (!set) open.set(row.device_id, (set = new Set()));
      set.add(row.condition_key as string);
    }
  }
  return open;
}

export interface NewRuleEvent {
  organisationId: number;
  deviceId: number;
  deviceName: string;
  templateId: number;
  conditionKey: string;
  rule: EventRule;
  startedTs: number;
  value: number | null;
  details: EventDetails;
}

/**
 * Opens a rule's event unless that condition already has one open (another gateway, or this one
 * before a restart): the partial unique index decides. Returns its id when this call opened it.
 */
export async function openRuleEvent(
  trx: Db,
  event: NewRuleEvent,
  nowIso: string,
): Promise<number | undefined> {
  const row = await trx
    .insertInto('device_events')
    .values({
      organisation_id: event.organisationId,
      device_id: event.deviceId,
      template_id: event.templateId,
      rule_key: event.rule.key,
      condition_key: event.conditionKey,
      kind: event.rule.kind,
      severity: event.rule.severity,
      title: null,
      description: null,
      details: JSON.stringify(event.details),
      value: event.value,
      started_ts: event.startedTs,
      ended_ts: null,
      created_at: nowIso,
      updated_at: nowIso,
    })
    .onConflict((oc) => oc.columns(['device_id', 'condition_key']).where('ended_ts', 'is', null).doNothing())
    .returning('id')
    .executeTakeFirst();
  return row?.id;
}

export async function closeRuleEvent(
  trx: Db,
  deviceId: number,
  conditionKey: string,
  endedTs: number,
  nowIso: string,
) {
  await trx
    .updateTable('device_events')
    .set({ ended_ts: endedTs, updated_at: nowIso })
    .where('device_id', '=', deviceId)
    .where('condition_key', '=', conditionKey)
    .where('ended_ts', 'is', null)
    .execute();
}
