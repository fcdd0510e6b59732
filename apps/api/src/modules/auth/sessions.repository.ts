import type { Database, SessionsTable } from '@kontrol/db';
import type { Insertable, Kysely, Selectable } from 'kysely';

export type SessionRow = Selectable<SessionsTable>;

export function findLiveSession(db: Kysely<Database>, idHash: string, now: string) {
  return db
    .selectFrom('sessions')
    .selectAll()
    .where('id', '=', idHash)
    .where('expires_at', '>', now)
    .executeTakeFirst();
}

export async function insertSession(db: Kysely<Database>, values: Insertable<SessionsTable>) {
  await db.insertInto('sessions').values(values).execute();
}

export async function touchSession(
  db: Kysely<Database>,
  idHash: string,
  lastActivityAt: string,
  expiresAt: string,
) {
  await db
    .updateTable('sessions')
    .set({ last_activity_at: lastActivityAt, expires_at: expiresAt })
    .where('id', '=', idHash)
    .execute();
}

export async function deleteSession(db: Kysely<Database>, idHash: string) {
  await db.deleteFrom('sessions').where('id', '=', idHash).execute();
}

/** Ends every session of a user, except `keepIdHash` when given (the one making the change). */
export async function deleteUserSessions(db: Kysely<Database>, userId: number, keepIdHash?: string) {
  let query = db.deleteFrom('sessions').where('user_id', '=', userId);
  if (keepIdHash) query = query.where('id', '!=', keepIdHash);
  await query.execute();
}

export async function purgeExpiredSessions(db: Kysely<Database>, now: string) {
  await db.deleteFrom('sessions').where('expires_at', '<=', now).execute();
}
