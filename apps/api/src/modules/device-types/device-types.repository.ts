import type { Database } from '@kontrol/db';
import type { Kysely } from 'kysely';

/** The seeded reference list, shared by every organisation, in the order the console shows it. */
export function listDeviceTypes(db: Kysely<Database>) {
  return db
    .selectFrom('device_types')
    .select(['id', 'slug', 'name_ru', 'name_en', 'telemetry', 'wash_interval_hours', 'program_capacity'])
    .orderBy('position')
    .orderBy('id')
    .execute();
}

export async function deviceTypeExists(db: Kysely<Database>, typeId: number): Promise<boolean> {
  const row = await db.selectFrom('device_types').select('id').where('id', '=', typeId).executeTakeFirst();
  return row !== undefined;
}
