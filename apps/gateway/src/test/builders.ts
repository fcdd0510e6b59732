import { randomBytes } from 'node:crypto';
import { DEFAULT_TIME_ZONE, DEFAULT_WORK_TIME } from '@kontrol/contracts';
import type { Database } from '@kontrol/db';
import type { Kysely } from 'kysely';
import { credentialHash } from '../devices/device-directory.js';

/**
 * Rows the gateway reads, inserted directly: what the API's registration and forms would have
 * created (the API's own builders, apps/api/src/test/builders.ts, go through its services).
 */
const unique = () => randomBytes(4).toString('hex');

/**
 * A new organisation with an admin whose role holds every module, as registration makes it: the
 * one who is notified of the organisation's devices.
 */
export async function buildOrganisation(db: Kysely<Database>) {
  const now = new Date().toISOString();
  const organisation = await db
    .insertInto('organisations')
    .values({ name: `Org ${unique()}`, created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  const role = await db
    .insertInto('acl_roles')
    .values({
      organisation_id: organisation.id,
      name: 'Administrator',
      is_client_system: 0,
      is_admin_role: 1,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const modules = await db.selectFrom('acl_modules').select('id').execute();
  await db
    .insertInto('acl_role_modules')
    .values(modules.map((module) => ({ acl_role_id: role.id, acl_module_id: module.id })))
    .execute();
  const admin = await db
    .insertInto('users')
    .values({
      organisation_id: organisation.id,
      name: 'Admin',
      email: `admin-${unique()}@example.test`,
      password_hash: null,
      role: 'admin',
      acl_role_id: role.id,
      email_verified_at: now,
      locale: 'en',
      disabled_at: null,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { organisationId: organisation.id, adminId: admin.id };
}

let smartCounter = 0;

/**
 * A smart device with a controller id and a gateway credential (returned, as the API shows it
 * once), of the given type, in a new room of a new address in `timeZone`.
 */
export async function buildSmartDevice(
  db: Kysely<Database>,
  organisationId: number,
  options: { typeSlug?: string; timeZone?: string; controllerId?: string } = {},
) {
  const now = new Date().toISOString();
  const address = await db
    .insertInto('addresses')
    .values({
      organisation_id: organisationId,
      name: `Address ${unique()}`,
      full_address: 'Moscow, Tverskaya 1',
      city: 'Moscow',
      time_zone: options.timeZone ?? DEFAULT_TIME_ZONE,
      work_time: JSON.stringify(DEFAULT_WORK_TIME),
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const room = await db
    .insertInto('rooms')
    .values({
      organisation_id: organisationId,
      address_id: address.id,
      name: `Room ${unique()}`,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const type = await db
    .selectFrom('device_types')
    .select('id')
    .where('slug', '=', options.typeSlug ?? 'combi_oven')
    .executeTakeFirstOrThrow();
  smartCounter += 1;
  const controllerId =
    options.controllerId ?? `ctl-${process.pid}-${Date.now().toString(36)}-${smartCounter}`;
  const credential = `kdc_test_${randomBytes(16).toString('hex')}`;
  const device = await db
    .insertInto('devices')
    .values({
      organisation_id: organisationId,
      room_id: room.id,
      type_id: type.id,
      name: `Device ${unique()}`,
      controller_id: controllerId,
      credential_hash: credentialHash(credential),
      credential_issued_at: now,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id: device.id, roomId: room.id, organisationId, controllerId, credential };
}
