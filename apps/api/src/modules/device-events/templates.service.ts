import {
  RULE_KEY_PATTERN,
  type deviceEventTemplateBodySchema,
  type EventRule,
  type MessageKey,
} from '@kontrol/contracts';
import type { Database } from '@kontrol/db';
import type { Kysely } from 'kysely';
import type { z } from 'zod';
import { FieldValidationError, notFound } from '@kontrol/server-kit';
import { nowIso } from '../../lib/time.js';
import {
  closeEventsOfRules,
  deleteTemplate as deleteTemplateRows,
  deviceTypeExists,
  findTemplate,
  insertTemplate,
  organisationDevices,
  replaceTemplateDevices,
  templateDevices,
  templatesQuery,
  updateTemplate as updateTemplateRow,
} from './templates.repository.js';
import { toTemplate } from './templates.presenter.js';

export type TemplateInput = z.output<typeof deviceEventTemplateBodySchema>;

export async function listTemplates(db: Kysely<Database>, organisationId: number) {
  const rows = await templatesQuery(db, organisationId).orderBy('name').orderBy('id').execute();
  const devices = await templateDevices(
    db,
    organisationId,
    rows.map((row) => row.id),
  );
  return rows.map((row) => toTemplate(row, devices.get(row.id) ?? []));
}

export async function getTemplate(db: Kysely<Database>, organisationId: number, id: number) {
  const row = await findTemplate(db, organisationId, id);
  if (!row) throw notFound();
  const devices = await templateDevices(db, organisationId, [id]);
  return toTemplate(row, devices.get(id) ?? []);
}

/**
 * Every rule with its key: kept keys stay (their events go on), missing ones get the first free
 * `r1`, `r2`, …; a key used twice is a 422 on the second.
 */
export function keyedRules(rules: TemplateInput['rules']): EventRule[] {
  const used = new Set<string>();
  const errors: Record<string, MessageKey[]> = {};
  rules.forEach((rule, index) => {
    if (rule.key === undefined) return;
    if (used.has(rule.key)) errors[`rules.${index}.key`] = ['field.rule_key_taken'];
    used.add(rule.key);
  });
  if (Object.keys(errors).length > 0) throw new FieldValidationError(errors);
  let next = 1;
  return rules.map((rule) => {
    if (rule.key !== undefined && RULE_KEY_PATTERN.test(rule.key)) return rule as EventRule;
    while (used.has(`r${next}`)) next += 1;
    const key = `r${next}`;
    used.add(key);
    return { ...rule, key };
  });
}

/** Rules the schema cannot check: the type, the devices, and a band for every current rule. */
async function checkTemplate(
  db: Kysely<Database>,
  organisationId: number,
  input: TemplateInput,
  existingDeviceIds: readonly number[] = [],
) {
  const errors: Record<string, MessageKey[]> = {};
  input.rules.forEach((rule, index) => {
    if ((rule.kind === 'current_above' || rule.kind === 'current_below') && !input.norms[rule.state])
      errors[`rules.${index}.state`] = ['template.rule_needs_band'];
  });
  if (!(await deviceTypeExists(db, input.device_type_id))) errors.device_type_id = ['field.exists'];
  const named = [
    ...new Set([...(input.device_id === null ? [] : [input.device_id]), ...(input.device_ids ?? [])]),
  ];
  const found = new Map((await organisationDevices(db, organisationId, named)).map((d) => [d.id, d.type_id]));
  if (input.device_id !== null) {
    const type = found.get(input.device_id);
    if (type === undefined) errors.device_id = ['field.exists'];
    else if (type !== input.device_type_id) errors.device_id = ['template.device_type'];
  }
  const deviceIds = input.device_ids ?? existingDeviceIds;
  if (input.device_ids) {
    if (input.device_ids.some((id) => !found.has(id))) errors.device_ids = ['field.exists'];
    else if (input.device_ids.some((id) => found.get(id) !== input.device_type_id))
      errors.device_ids = ['template.device_type'];
  }
  if (input.device_id !== null && deviceIds.some((id) => id !== input.device_id) && !errors.device_ids)
    errors.device_ids = ['template.device_only'];
  if (Object.keys(errors).length > 0) throw new FieldValidationError(errors);
}

function columnsOf(input: TemplateInput, rules: readonly EventRule[]) {
  return {
    name: input.name,
    description: input.description,
    device_type_id: input.device_type_id,
    device_id: input.device_id,
    norms: JSON.stringify(input.norms),
    rules: JSON.stringify(rules),
  };
}

export async function createTemplate(db: Kysely<Database>, organisationId: number, input: TemplateInput) {
  const rules = keyedRules(input.rules);
  await checkTemplate(db, organisationId, input);
  const now = nowIso();
  const id = await db.transaction().execute(async (trx) => {
    const created = await insertTemplate(trx, {
      organisation_id: organisationId,
      ...columnsOf(input, rules),
      created_at: now,
      updated_at: now,
    });
    if (input.device_ids) await replaceTemplateDevices(trx, organisationId, created, input.device_ids, now);
    return created;
  });
  return getTemplate(db, organisationId, id);
}

/**
 * Replaces a template. Events of rules it no longer has are closed now; a device it no longer
 * lists loses it. A type change leaves devices of the old type only if `device_ids` names them
 * (which the type check refuses): so they must be listed anew.
 */
export async function updateTemplate(
  db: Kysely<Database>,
  organisationId: number,
  id: number,
  input: TemplateInput,
) {
  const existing = await getTemplate(db, organisationId, id);
  const rules = keyedRules(input.rules);
  const keepDevices = input.device_ids ?? existing.device_ids;
  await checkTemplate(db, organisationId, { ...input, device_ids: keepDevices }, existing.device_ids);
  const now = nowIso();
  await db.transaction().execute(async (trx) => {
    if (!(await updateTemplateRow(trx, organisationId, id, { ...columnsOf(input, rules), updated_at: now })))
      throw notFound();
    await closeEventsOfRules(
      trx,
      id,
      rules.map((rule) => `${id}:${rule.key}`),
      Date.now(),
      now,
    );
    if (input.device_ids) await replaceTemplateDevices(trx, organisationId, id, input.device_ids, now);
  });
  return getTemplate(db, organisationId, id);
}

/** Deletes a template: its devices lose it (and their norm), its open events close now. */
export async function deleteTemplate(db: Kysely<Database>, organisationId: number, id: number) {
  const deleted = await db
    .transaction()
    .execute((trx) => deleteTemplateRows(trx, organisationId, id, Date.now(), nowIso()));
  if (!deleted) throw notFound();
}
