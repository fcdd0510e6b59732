import { createHash, randomBytes } from 'node:crypto';
import { DEFAULT_TIME_ZONE, DEFAULT_WORK_TIME, type ModuleSlug } from '@kontrol/contracts';
import type { Database } from '@kontrol/db';
import type { FastifyInstance } from 'fastify';
import { sql, type Kysely } from 'kysely';
import { sha256 } from '../../lib/crypto.js';
import { insertRole } from '../../modules/acl/acl.repository.js';
import { insertIntegration } from '../../modules/integrations/integrations.repository.js';
import {
  buildAddress,
  buildOrganisation,
  buildRecipe,
  buildRecipeSet,
  buildRoom,
  buildSmartDevice,
  buildTemplate,
  buildUser,
  VALID_ORGANISATION_DETAILS,
} from '../builders.js';
import { send, signIn, type Session } from './http.js';
import { pathParams, type RouteInfo } from './route-table.js';
import type { Hints } from './values.js';

/**
 * Two organisations with one of everything, for the checks that need real rows: the builders of
 * src/test where there is one, else the API as the organisation's admin (as a person would), else
 * a direct insert.
 */

/** Every name, title and text of organisation B carries this, so no answer to A may show it. */
export const B_MARKER = 'ORGB-SECRET-7f3a';

/** The kinds of rows a route parameter or a body field can name. */
export type Kind =
  | 'address'
  | 'room'
  | 'device'
  | 'template'
  | 'recipe'
  | 'set'
  | 'user'
  | 'role'
  | 'group'
  | 'service_entry'
  | 'event'
  | 'complaint'
  | 'integration'
  | 'telegram_token'
  | 'payment'
  | 'payment_external'
  | 'document'
  | 'recipe_image'
  | 'complaint_photo'
  | 'notification'
  | 'support_message'
  | 'bind';

export interface Org {
  id: number;
  adminId: number;
  adminEmail: string;
  adminPassword: string;
  admin: Session;
  name: string;
}

/** A 1×1 PNG (signature, IHDR, one deflated scanline, IEND; CRCs precomputed). */
export const PNG_1x1 = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108020000009077' +
    '53de0000000c4944415478da63f8cfc00000030101009a6d4a1e0000000049454e44ae426082',
  'hex',
);

/** A multipart/form-data body with one image part, as a browser's FormData sends it. */
export function multipartImage(bytes: Buffer = PNG_1x1, filename = 'image.png', type = 'image/png') {
  const boundary = `----KontrolSecurity${randomBytes(8).toString('hex')}`;
  return {
    raw: Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="image"; filename="${filename}"\r\n` +
          `Content-Type: ${type}\r\n\r\n`,
      ),
      bytes,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]),
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}

const unique = () => randomBytes(4).toString('hex');

export async function buildOrg(app: FastifyInstance, db: Kysely<Database>, label: string): Promise<Org> {
  const built = await buildOrganisation(db, { name: `${label} ${unique()}` });
  const admin = await signIn(app, built.admin.email, built.admin.password);
  return {
    id: built.organisationId,
    adminId: built.admin.id,
    adminEmail: built.admin.email,
    adminPassword: built.admin.password,
    admin,
    name: label,
  };
}

async function combiOven(db: Kysely<Database>) {
  return (
    await db
      .selectFrom('device_types')
      .select('id')
      .where('slug', '=', 'combi_oven')
      .executeTakeFirstOrThrow()
  ).id;
}

/** A request as the organisation's admin that must succeed; its JSON answer. */
async function asAdmin(
  app: FastifyInstance,
  org: Org,
  method: string,
  url: string,
  body?: unknown,
): Promise<Record<string, unknown>> {
  const upload = body instanceof Buffer ? multipartImage(body) : undefined;
  const answer = await send(app, {
    method,
    url,
    session: org.admin,
    ...(upload ? upload : body === undefined ? {} : { json: body }),
  });
  if (answer.status >= 300)
    throw new Error(`${method} ${url} as ${org.name}: ${answer.status} ${answer.body}`);
  return answer.body ? (JSON.parse(answer.body) as Record<string, unknown>) : {};
}

const dataOf = (answer: Record<string, unknown>) => answer.data as Record<string, unknown>;

/**
 * Makes a new row of `kind` in `org` and answers what names it in a URL or a body (an id, a file
 * name, a link token). `context` holds what other parameters of the same route already named
 * (a service entry is made on the device of `:id`).
 */
export async function makeResource(
  app: FastifyInstance,
  db: Kysely<Database>,
  org: Org,
  kind: Kind,
  context: { deviceId?: number } = {},
): Promise<string | number> {
  const label = `${org.name} ${kind} ${unique()}`;
  const now = new Date().toISOString();
  switch (kind) {
    case 'address': {
      // With an image, so the image routes have something to serve.
      const { id } = await buildAddress(db, org.id, { name: label });
      await asAdmin(app, org, 'POST', `/api/addresses/${id}/image`, PNG_1x1);
      return id;
    }
    case 'room':
      return (await buildRoom(db, org.id, { name: label })).id;
    case 'device':
      return (await buildSmartDevice(db, org.id)).id;
    case 'template':
      return (await buildTemplate(db, org.id, { name: label })).id;
    case 'recipe':
      return (await buildRecipe(db, org.id, { name: label })).id;
    case 'set': {
      const recipe = await buildRecipe(db, org.id, { name: `${label} recipe` });
      return (await buildRecipeSet(db, org.id, { name: label, recipeIds: [recipe.id] })).id;
    }
    case 'user':
      return (await buildUser(db, org.id, { modules: ['dashboard', 'requests'] })).id;
    case 'role': {
      const modules = await db.selectFrom('acl_modules').select('id').where('slug', '=', 'devices').execute();
      return insertRole(db, {
        organisationId: org.id,
        name: label,
        isAdminRole: false,
        moduleIds: modules.map((m) => m.id),
      });
    }
    case 'group': {
      const device = await buildSmartDevice(db, org.id);
      const answer = await asAdmin(app, org, 'POST', '/api/devices/client/groups/add', {
        name: label,
        device_ids: [device.id],
      });
      return dataOf(answer).id as number;
    }
    case 'service_entry': {
      const deviceId = context.deviceId ?? (await buildSmartDevice(db, org.id)).id;
      const answer = await asAdmin(app, org, 'POST', `/api/devices/${deviceId}/service_log`, {
        date: now.slice(0, 10),
        kind: 'inspection',
        performed_by: label,
        note: label,
      });
      return dataOf(answer).id as number;
    }
    case 'event': {
      const device = await buildSmartDevice(db, org.id);
      const answer = await asAdmin(app, org, 'POST', '/api/devices/events/add', {
        device_id: device.id,
        title: label,
        description: label,
      });
      return dataOf(answer).id as number;
    }
    case 'complaint': {
      const device = await buildSmartDevice(db, org.id);
      const answer = await asAdmin(app, org, 'POST', '/api/alerts/', {
        title: label,
        text: label,
        device_id: device.id,
      });
      return dataOf(answer).id as number;
    }
    case 'integration':
    case 'telegram_token': {
      const token = randomBytes(24).toString('base64url');
      const id = await insertIntegration(db, {
        organisation_id: org.id,
        kind: 'telegram',
        name: label,
        user_id: org.adminId,
        status: 'pending',
        link_token_hash: sha256(token),
        link_expires_at: new Date(Date.now() + 3_600_000).toISOString(),
        created_at: now,
        updated_at: now,
      });
      return kind === 'integration' ? id : token;
    }
    case 'payment':
    case 'payment_external': {
      const answer = await asAdmin(app, org, 'POST', '/api/payment/create', { amount: 150_000 });
      const id = dataOf(answer).id as number;
      if (kind === 'payment') return id;
      // The provider's reference, which its page and callback name (public: the sandbox's link).
      const row = await db
        .selectFrom('payments')
        .select('external_id')
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      return row.external_id ?? '';
    }
    case 'document': {
      await ensureRequisites(app, org);
      const answer = await asAdmin(app, org, 'POST', '/api/payment/invoice/create', { amount: 250_000 });
      return dataOf(answer).id as number;
    }
    case 'recipe_image': {
      const answer = await asAdmin(app, org, 'POST', '/api/recipes/image', PNG_1x1);
      return dataOf(answer).image as string;
    }
    case 'complaint_photo': {
      const answer = await asAdmin(app, org, 'POST', '/api/alerts/photo', PNG_1x1);
      return dataOf(answer).photo as string;
    }
    case 'notification': {
      const row = await db
        .insertInto('notifications')
        .values({
          organisation_id: org.id,
          user_id: org.adminId,
          kind: 'manual',
          severity: 'info',
          title: label,
          body: label,
          created_at: now,
          read_at: null,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    }
    case 'support_message': {
      const answer = await asAdmin(app, org, 'POST', '/api/messages', { text: label });
      return dataOf(answer).id as number;
    }
    case 'bind': {
      const device = await buildSmartDevice(db, org.id);
      const set = Number(await makeResource(app, db, org, 'set'));
      await asAdmin(app, org, 'POST', '/api/recipes_sets/upload', { device_id: device.id, set_id: set });
      const bind = await db
        .selectFrom('device_recipe_binds')
        .select('id')
        .where('device_id', '=', device.id)
        .executeTakeFirstOrThrow();
      return bind.id;
    }
  }
}

// Per app: test files share this module when Vitest does not isolate them, and each file's fresh
// database numbers its organisations from 1 again.
const withRequisites = new WeakMap<FastifyInstance, Set<number>>();
async function ensureRequisites(app: FastifyInstance, org: Org) {
  const done = withRequisites.get(app) ?? new Set<number>();
  withRequisites.set(app, done);
  if (done.has(org.id)) return;
  await asAdmin(app, org, 'POST', '/api/users/update_organization', VALID_ORGANISATION_DETAILS);
  done.add(org.id);
}

export const ALL_KINDS: readonly Kind[] = [
  'address',
  'room',
  'device',
  'template',
  'recipe',
  'set',
  'user',
  'role',
  'group',
  'service_entry',
  'event',
  'complaint',
  'integration',
  'telegram_token',
  'payment',
  'payment_external',
  'document',
  'recipe_image',
  'complaint_photo',
  'notification',
  'support_message',
  'bind',
];

/** Organisation B: one row of every kind (names carry {@link B_MARKER}), never to be changed. */
export async function buildVictim(app: FastifyInstance, db: Kysely<Database>) {
  const org = await buildOrg(app, db, B_MARKER);
  const ids = {} as Record<Kind, string | number>;
  for (const kind of ALL_KINDS) ids[kind] = await makeResource(app, db, org, kind);
  // B's service entry on B's device, for the routes naming both.
  const entryDevice = Number(ids.device);
  const entry = await makeResource(app, db, org, 'service_entry', { deviceId: entryDevice });
  return { org, ids, entry: { deviceId: entryDevice, id: Number(entry) } };
}

/**
 * Values for body and query fields by name, with the rows of `org` (for valid examples): ids of
 * its own rows, and the formats the schemas' refinements want (zones, times, dates, periods).
 */
export async function hintsFor(
  app: FastifyInstance,
  db: Kysely<Database>,
  org: Org,
  modules: readonly ModuleSlug[] = [],
): Promise<Hints> {
  // One address, room and device that belong together (a complaint may name both).
  const room = await buildRoom(db, org.id);
  const device = await buildSmartDevice(db, org.id, { roomId: room.id });
  const recipe = await buildRecipe(db, org.id);
  const set = await buildRecipeSet(db, org.id, { recipeIds: [recipe.id] });
  const template = await buildTemplate(db, org.id);
  const user = await buildUser(db, org.id, { modules: ['dashboard', 'requests'] });
  const role = Number(await makeResource(app, db, org, 'role'));
  const bind = Number(await makeResource(app, db, org, 'bind'));
  const notification = Number(await makeResource(app, db, org, 'notification'));
  const moduleIds = await db
    .selectFrom('acl_modules')
    .select('id')
    .where('slug', 'in', modules.length > 0 ? [...modules] : ['devices'])
    .execute();
  const typeId = await combiOven(db);
  const today = new Date();
  const day = (offset: number) => new Date(today.getTime() + offset * 86_400_000).toISOString().slice(0, 10);
  const lastMonth = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth() - 1, 1))
    .toISOString()
    .slice(0, 7);
  return {
    address_id: [room.addressId],
    room_id: [room.id],
    device_id: [device.id],
    device: [device.id],
    device_ids: [[device.id]],
    devices: [String(device.id), [String(device.id)], device.id],
    ids: [[notification], String(device.id), [String(device.id)], device.id],
    id: [device.id],
    type_id: [typeId],
    device_type_id: [typeId],
    template_id: [template.id],
    set_id: [set.id],
    set_ids: [[set.id]],
    recipe_ids: [[recipe.id]],
    bind_ids: [[bind]],
    acl_role_id: [role],
    module_ids: [moduleIds.map((m) => m.id)],
    user_id: [user.id],
    assignee_id: [user.id],
    up_to_id: [1],
    time_zone: [DEFAULT_TIME_ZONE],
    tz: [DEFAULT_TIME_ZONE],
    work_time: [DEFAULT_WORK_TIME],
    date: [day(0)],
    start: [day(-7), `${day(-7)}T00:00:00.000Z`, Date.now() - 7 * 86_400_000],
    finish: [day(0), `${day(0)}T00:00:00.000Z`, Date.now()],
    started_at: [`${day(0)}T00:00:00.000Z`, Date.now()],
    period: [lastMonth],
    shift_start: ['08:00'],
    quiet_hours: [null, { start: '22:00', end: '07:00' }],
    channels: [{ web: true, email: false, telegram: false }],
    kinds: [['manual']],
    severities: [['critical']],
    kind: ['inspection', 'telegram'],
    steps: [[{ mode: 'convection', temperature: 180, duration_seconds: 600 }]],
    amount: [100_000],
    name: ['Sample name'],
    title: ['Sample title'],
    text: ['Sample text'],
    performed_by: ['Sample engineer'],
    email: [`sample-${unique()}@example.test`],
    outcome: ['failed'],
    password: ['Sample-password-1'],
    password_confirmation: ['Sample-password-1'],
    current_password: ['not-the-password'],
    token: ['a'.repeat(43)],
    ...Object.fromEntries(Object.entries(VALID_ORGANISATION_DETAILS).map(([key, value]) => [key, [value]])),
    metrics: ['temperature', ['temperature']],
  };
}

// ---------------------------------------------------------------------------------------------
// What an organisation holds, to prove it unchanged

/** Tables whose rows carry `organisation_id`. */
const ORG_TABLES = [
  'users',
  'acl_roles',
  'addresses',
  'rooms',
  'devices',
  'device_groups',
  'device_service_entries',
  'notifications',
  'device_event_templates',
  'device_events',
  'recipe_images',
  'recipes',
  'recipe_sets',
  'device_recipe_binds',
  'user_settings',
  'complaint_photos',
  'complaints',
  'complaint_events',
  'support_messages',
  'integrations',
  'telegram_outbox',
  'billing_accounts',
  'ledger_entries',
  'organisation_details',
  'payments',
  'billing_documents',
  'mail_outbox',
] as const;

/** Tables that hang off another row of the organisation: `[table, column, parent table]`. */
const CHILD_TABLES = [
  ['acl_role_modules', 'acl_role_id', 'acl_roles'],
  ['device_group_devices', 'group_id', 'device_groups'],
  ['recipe_set_recipes', 'set_id', 'recipe_sets'],
  ['device_live', 'device_id', 'devices'],
  ['device_rule_state', 'device_id', 'devices'],
  ['wash_cycles', 'device_id', 'devices'],
  ['telemetry_samples', 'device_id', 'devices'],
  ['telemetry_day', 'device_id', 'devices'],
  ['personal_access_tokens', 'user_id', 'users'],
  ['user_tokens', 'user_id', 'users'],
] as const;

const normalise = (value: unknown): unknown =>
  value instanceof Uint8Array ? `bytes:${createHash('sha256').update(value).digest('hex')}` : value;

/**
 * Every row an organisation owns (its own row, the tables with its id, and their children), in a
 * stable order: two snapshots are equal exactly when nothing of it changed.
 */
export async function snapshotOrg(db: Kysely<Database>, organisationId: number) {
  const rows = (query: Promise<{ rows: Record<string, unknown>[] }>) =>
    query.then((result) =>
      result.rows
        .map((row) =>
          JSON.stringify(Object.fromEntries(Object.entries(row).map(([k, v]) => [k, normalise(v)]))),
        )
        .sort(),
    );
  const queries: [string, Promise<string[]>][] = [
    [
      'organisations',
      rows(
        sql<Record<string, unknown>>`select * from organisations where id = ${organisationId}`.execute(db),
      ),
    ],
    ...ORG_TABLES.map((table): [string, Promise<string[]>] => [
      table,
      rows(
        sql<
          Record<string, unknown>
        >`select * from ${sql.table(table)} where organisation_id = ${organisationId}`.execute(db),
      ),
    ]),
    ...CHILD_TABLES.map(([table, column, parent]): [string, Promise<string[]>] => [
      table,
      rows(
        sql<
          Record<string, unknown>
        >`select * from ${sql.table(table)} where ${sql.ref(column)} in (select id from ${sql.table(parent)} where organisation_id = ${organisationId})`.execute(
          db,
        ),
      ),
    ]),
  ];
  // All at once: PostgreSQL answers them on the pool's connections side by side.
  const results = await Promise.all(queries.map(([, query]) => query));
  return Object.fromEntries(queries.map(([table], index) => [table, results[index] ?? []]));
}

export async function hashOrg(db: Kysely<Database>, organisationId: number): Promise<string> {
  return createHash('sha256')
    .update(JSON.stringify(await snapshotOrg(db, organisationId)))
    .digest('hex');
}

/** The tables whose rows differ between two snapshots, with the rows added and removed. */
export function snapshotDiff(before: Record<string, string[]>, after: Record<string, string[]>) {
  const diff: Record<string, { removed: string[]; added: string[] }> = {};
  for (const table of new Set([...Object.keys(before), ...Object.keys(after)])) {
    const was = new Set(before[table] ?? []);
    const now = new Set(after[table] ?? []);
    const removed = [...was].filter((row) => !now.has(row));
    const added = [...now].filter((row) => !was.has(row));
    if (removed.length > 0 || added.length > 0) diff[table] = { removed, added };
  }
  return diff;
}

// ---------------------------------------------------------------------------------------------
// Which kind of row a route's path parameter names

/** The kind of row an `:id` names, by the path before it (the longest prefix wins). */
export const ID_PREFIXES: readonly (readonly [string, Kind | null])[] = [
  ['/api/acl/role', 'role'],
  ['/api/acl/roles', 'role'],
  ['/api/acl/modules', null],
  ['/api/devices', 'device'],
  ['/api/devices/types', null],
  ['/api/devices/stat', null],
  ['/api/devices/client/groups', 'group'],
  ['/api/devices/events/templates', 'template'],
  ['/api/devices/events', 'event'],
  ['/api/addresses', 'address'],
  ['/api/rooms', 'room'],
  ['/api/recipes', 'recipe'],
  ['/api/recipes_sets', 'set'],
  ['/api/users', 'user'],
  ['/api/users/balance', null],
  ['/api/users/balance_log', null],
  ['/api/users/organization', null],
  ['/api/alerts', 'complaint'],
  ['/api/integrations_show', 'integration'],
  ['/api/integrations', 'integration'],
  ['/api/payment/payments', 'payment'],
  ['/api/payment/documents', 'document'],
  ['/api/notifications', 'notification'],
  ['/api/messages', 'support_message'],
];

export function kindByPrefix(path: string): Kind | null | undefined {
  const match = [...ID_PREFIXES]
    .filter(([prefix]) => path === prefix || path.startsWith(`${prefix}/`))
    .sort((a, b) => b[0].length - a[0].length)[0];
  return match?.[1];
}

/** Path parameters that name no row of an organisation, and the value the suite gives them. */
export const NOT_IDS: Record<string, string> = {
  // A device type (shared reference data), by its id or slug.
  'GET /api/devices/stat/:type type': 'combi_oven',
};

/** The kind of row a path parameter names; undefined when unknown (the suite fails then). */
export function kindOfParam(route: RouteInfo, name: string): Kind | null | undefined {
  if (NOT_IDS[`${route.key} ${name}`]) return null;
  if (name === 'entryId') return 'service_entry';
  if (name === 'setId') return 'set';
  if (name === 'file' && route.url.startsWith('/api/recipes/images/')) return 'recipe_image';
  if (name === 'file' && route.url.startsWith('/api/alerts/photo/')) return 'complaint_photo';
  if (name === 'token' && route.url.startsWith('/api/integrations/telegram/')) return 'telegram_token';
  if (name === 'externalId' && route.url.startsWith('/api/payment/sandbox/')) return 'payment_external';
  if (name !== 'id') return undefined;
  const before = route.url.slice(0, route.url.indexOf(':id')).replace(/\/$/, '');
  return kindByPrefix(before);
}

/** Fresh rows of `org` for the route's path parameters, consistent with one another. */
export async function pathValues(
  app: FastifyInstance,
  db: Kysely<Database>,
  org: Org,
  route: RouteInfo,
): Promise<Record<string, string | number>> {
  const values: Record<string, string | number> = {};
  for (const name of pathParams(route.url)) {
    const kind = kindOfParam(route, name);
    if (kind === null || kind === undefined) {
      values[name] = NOT_IDS[`${route.key} ${name}`] ?? '1';
      continue;
    }
    values[name] = await makeResource(app, db, org, kind, { deviceId: Number(values.id) || undefined });
  }
  return values;
}
