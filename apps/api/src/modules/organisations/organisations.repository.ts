import type { Database } from '@kontrol/db';
import type { Kysely } from 'kysely';
import { nowIso } from '../../lib/time.js';

export async function insertOrganisation(db: Kysely<Database>, name: string) {
  const now = nowIso();
  const row = await db
    .insertInto('organisations')
    .values({ name, created_at: now, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export function countOrganisations(db: Kysely<Database>) {
  return db
    .selectFrom('organisations')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirstOrThrow()
    .then((row) => Number(row.count));
}

export async function organisationExists(db: Kysely<Database>, id: number) {
  const row = await db.selectFrom('organisations').select('id').where('id', '=', id).executeTakeFirst();
  return row !== undefined;
}
