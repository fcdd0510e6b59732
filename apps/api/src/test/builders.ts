import { DEFAULT_TIME_ZONE, DEFAULT_WORK_TIME, type ModuleSlug, type RecipeStep } from '@kontrol/contracts';
import type { Database, DeviceLiveTable, DevicesTable } from '@kontrol/db';
import { randomBytes } from 'node:crypto';
import type { Insertable, Kysely } from 'kysely';
import { insertRole } from '../modules/acl/acl.repository.js';
import { programFile } from '../modules/recipes/program-file.js';
import { createOrganisationWithAdmin } from '../modules/organisations/organisations.service.js';
import { createUser } from '../modules/users/users.service.js';
import { sha256 } from '../lib/crypto.js';

export interface BuiltUser {
  id: number;
  email: string;
  password: string;
  organisationId: number;
}

const unique = () => randomBytes(4).toString('hex');

/** A new organisation whose admin holds every module (as registration makes it). */
export async function buildOrganisation(
  db: Kysely<Database>,
  options: { name?: string; locale?: 'ru' | 'en' } = {},
) {
  const email = `admin-${unique()}@example.test`;
  const password = `pass-${unique()}`;
  const created = await createOrganisationWithAdmin(db, {
    organisationName: options.name ?? `Org ${unique()}`,
    admin: { name: 'Admin', email, password, locale: options.locale ?? 'en', verified: true },
  });
  const admin: BuiltUser = { id: created.userId, email, password, organisationId: created.organisationId };
  return { organisationId: created.organisationId, adminRoleId: created.adminRoleId, admin };
}

/** A user of the organisation holding exactly `modules` (through a new access role). */
export async function buildUser(
  db: Kysely<Database>,
  organisationId: number,
  options: {
    modules?: ModuleSlug[];
    role?: 'regular' | 'admin';
    verified?: boolean;
    locale?: 'ru' | 'en';
  } = {},
): Promise<BuiltUser & { roleId: number | null }> {
  let roleId: number | null = null;
  if (options.modules) {
    const all = await db.selectFrom('acl_modules').select(['id', 'slug']).execute();
    roleId = await insertRole(db, {
      organisationId,
      name: `Role ${unique()}`,
      isAdminRole: false,
      moduleIds: all.filter((m) => options.modules?.includes(m.slug as ModuleSlug)).map((m) => m.id),
    });
  }
  const email = `user-${unique()}@example.test`;
  const password = `pass-${unique()}`;
  const id = await createUser(db, {
    organisationId,
    name: 'User',
    email,
    password,
    role: options.role ?? 'regular',
    aclRoleId: roleId,
    locale: options.locale ?? 'en',
    verified: options.verified ?? true,
  });
  return { id, email, password, organisationId, roleId };
}

/** An address of the organisation, inserted directly (Moscow time, open 09:00–21:00 daily). */
export async function buildAddress(
  db: Kysely<Database>,
  organisationId: number,
  options: { name?: string; timeZone?: string } = {},
) {
  const now = new Date().toISOString();
  const row = await db
    .insertInto('addresses')
    .values({
      organisation_id: organisationId,
      name: options.name ?? `Address ${unique()}`,
      full_address: 'Moscow, Tverskaya 1',
      city: 'Moscow',
      time_zone: options.timeZone ?? DEFAULT_TIME_ZONE,
      work_time: JSON.stringify(DEFAULT_WORK_TIME),
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id: row.id, organisationId };
}

/** A room of the organisation, in `addressId` or in a new address of its own. */
export async function buildRoom(
  db: Kysely<Database>,
  organisationId: number,
  options: { addressId?: number; name?: string } = {},
) {
  const addressId = options.addressId ?? (await buildAddress(db, organisationId)).id;
  const now = new Date().toISOString();
  const row = await db
    .insertInto('rooms')
    .values({
      organisation_id: organisationId,
      address_id: addressId,
      name: options.name ?? `Room ${unique()}`,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id: row.id, addressId, organisationId };
}

/** What the gateway keeps about a device (`device_live`), for tests that need it written. */
type DeviceLiveOptions = Partial<
  Pick<Insertable<DeviceLiveTable>, 'last_online_at' | 'work_start_date' | 'work_start_time'>
>;

/**
 * A device of the organisation inserted directly (no credential is issued: use the API for that),
 * in `roomId` or in a new room; a combi oven unless `typeId` says otherwise.
 */
export async function buildDevice(
  db: Kysely<Database>,
  organisationId: number,
  options: Partial<Omit<Insertable<DevicesTable>, 'organisation_id'>> & DeviceLiveOptions = {},
) {
  const { last_online_at, work_start_date, work_start_time, ...deviceOptions } = options;
  const roomId = options.room_id ?? (await buildRoom(db, organisationId)).id;
  const type =
    options.type_id ??
    (
      await db
        .selectFrom('device_types')
        .select('id')
        .where('slug', '=', 'combi_oven')
        .executeTakeFirstOrThrow()
    ).id;
  const now = new Date().toISOString();
  const row = await db
    .insertInto('devices')
    .values({
      name: `Device ${unique()}`,
      created_at: now,
      updated_at: now,
      ...deviceOptions,
      organisation_id: organisationId,
      room_id: roomId,
      type_id: type,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  if (last_online_at !== undefined || work_start_date !== undefined || work_start_time !== undefined) {
    await db
      .insertInto('device_live')
      .values({ device_id: row.id, last_online_at, work_start_date, work_start_time })
      .execute();
  }
  return { id: row.id, roomId, typeId: type, organisationId };
}

let smartCounter = 0;

/**
 * A smart device with a controller id and a gateway credential (the secret is returned, as the API
 * shows it once), of the given type slug, in `roomId` or a new room and address (`timeZone`).
 */
export async function buildSmartDevice(
  db: Kysely<Database>,
  organisationId: number,
  options: { roomId?: number; typeSlug?: string; timeZone?: string; controllerId?: string } = {},
) {
  const roomId =
    options.roomId ??
    (
      await buildRoom(db, organisationId, {
        addressId: (await buildAddress(db, organisationId, { timeZone: options.timeZone })).id,
      })
    ).id;
  const type = await db
    .selectFrom('device_types')
    .select('id')
    .where('slug', '=', options.typeSlug ?? 'combi_oven')
    .executeTakeFirstOrThrow();
  smartCounter += 1;
  const controllerId =
    options.controllerId ?? `ctl-${process.pid}-${Date.now().toString(36)}-${smartCounter}`;
  const credential = `kdc_test_${randomBytes(16).toString('hex')}`;
  const device = await buildDevice(db, organisationId, {
    room_id: roomId,
    type_id: type.id,
    controller_id: controllerId,
    credential_hash: sha256(credential),
    credential_issued_at: new Date().toISOString(),
  });
  return { ...device, controllerId, credential };
}

/** A current template of the organisation inserted directly: a combi oven's unless `typeId` says otherwise. */
export async function buildTemplate(
  db: Kysely<Database>,
  organisationId: number,
  options: {
    typeId?: number;
    deviceId?: number | null;
    name?: string;
    norms?: object;
    rules?: object[];
  } = {},
) {
  const typeId =
    options.typeId ??
    (
      await db
        .selectFrom('device_types')
        .select('id')
        .where('slug', '=', 'combi_oven')
        .executeTakeFirstOrThrow()
    ).id;
  const now = new Date().toISOString();
  const row = await db
    .insertInto('device_event_templates')
    .values({
      organisation_id: organisationId,
      name: options.name ?? `Template ${unique()}`,
      description: null,
      device_type_id: typeId,
      device_id: options.deviceId ?? null,
      norms: JSON.stringify(
        options.norms ?? {
          idle: { min: 0.5, max: 2 },
          heating: { min: 20, max: 45 },
          cooking: null,
          washing: null,
        },
      ),
      rules: JSON.stringify(options.rules ?? []),
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id: row.id, typeId };
}

/** A recipe of the organisation inserted directly (one convection step), with its program file's CRC. */
export async function buildRecipe(
  db: Kysely<Database>,
  organisationId: number,
  options: { typeSlug?: string; name?: string; steps?: RecipeStep[]; version?: number } = {},
) {
  const type = await db
    .selectFrom('device_types')
    .select(['id', 'slug'])
    .where('slug', '=', options.typeSlug ?? 'combi_oven')
    .executeTakeFirstOrThrow();
  const name = options.name ?? `Recipe ${unique()}`;
  const version = options.version ?? 1;
  const steps: RecipeStep[] = options.steps ?? [
    {
      mode: 'convection',
      temperature: 180,
      humidity: null,
      fan_speed: 3,
      duration_seconds: 600,
      core_temperature: null,
      prompt: null,
    },
  ];
  const now = new Date().toISOString();
  const row = await db
    .insertInto('recipes')
    .values({
      organisation_id: organisationId,
      device_type_id: type.id,
      name,
      category: null,
      description: null,
      image: null,
      steps: JSON.stringify(steps),
      version,
      crc: '00000000',
      size: 0,
      duration_seconds: steps.reduce((sum, step) => sum + (step.duration_seconds ?? 0), 0),
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const file = programFile({ id: row.id, version, type: type.slug, name, steps });
  await db.updateTable('recipes').set({ crc: file.crc, size: file.size }).where('id', '=', row.id).execute();
  return { id: row.id, typeId: type.id, crc: file.crc, size: file.size, file };
}

/** A recipe set of the organisation holding `recipeIds` in that order, inserted directly. */
export async function buildRecipeSet(
  db: Kysely<Database>,
  organisationId: number,
  options: { typeId?: number; name?: string; recipeIds?: number[] } = {},
) {
  const typeId =
    options.typeId ??
    (
      await db
        .selectFrom('device_types')
        .select('id')
        .where('slug', '=', 'combi_oven')
        .executeTakeFirstOrThrow()
    ).id;
  const now = new Date().toISOString();
  const row = await db
    .insertInto('recipe_sets')
    .values({
      organisation_id: organisationId,
      device_type_id: typeId,
      name: options.name ?? `Set ${unique()}`,
      description: null,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const recipeIds = options.recipeIds ?? [];
  if (recipeIds.length > 0)
    await db
      .insertInto('recipe_set_recipes')
      .values(recipeIds.map((recipeId, position) => ({ set_id: row.id, recipe_id: recipeId, position })))
      .execute();
  return { id: row.id, typeId };
}

/** An organisation's details that pass every check (POST /api/users/update_organization). */
export const VALID_ORGANISATION_DETAILS = {
  legal_name: 'ООО «Северная кухня»',
  inn: '7707083893',
  kpp: '773601001',
  ogrn: '1027700132195',
  legal_address: '190000, г. Санкт-Петербург, Невский пр., д. 1',
  postal_address: '',
  bank_name: 'ПАО Сбербанк',
  bik: '044525225',
  correspondent_account: '30101810400000000225',
  settlement_account: '40702810638000000000',
  director: 'Смирнова Анна Павловна',
  accountant: 'Кузнецов Олег Игоревич',
  documents_email: 'buh@example.test',
};
