import type { Database, PersonalAccessTokensTable, UserTokenPurpose } from '@kontrol/db';
import type { Insertable, Kysely } from 'kysely';

export async function insertAccessToken(db: Kysely<Database>, values: Insertable<PersonalAccessTokensTable>) {
  const row = await db
    .insertInto('personal_access_tokens')
    .values(values)
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export function findLiveAccessToken(db: Kysely<Database>, tokenHash: string, now: string) {
  return db
    .selectFrom('personal_access_tokens')
    .selectAll()
    .where('token_hash', '=', tokenHash)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
    .executeTakeFirst();
}

/** The user of a personal access token that still works (not deleted, not expired). */
export async function findLiveAccessTokenUser(
  db: Kysely<Database>,
  id: number,
  now: string,
): Promise<number | undefined> {
  const row = await db
    .selectFrom('personal_access_tokens')
    .select('user_id')
    .where('id', '=', id)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
    .executeTakeFirst();
  return row?.user_id;
}

/** Deletes a single-use token; true only for the one caller that actually consumed it. */
export async function consumeAccessToken(db: Kysely<Database>, id: number) {
  const result = await db.deleteFrom('personal_access_tokens').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}

export async function markAccessTokenUsed(db: Kysely<Database>, id: number, now: string) {
  await db.updateTable('personal_access_tokens').set({ last_used_at: now }).where('id', '=', id).execute();
}

export async function deleteAccessToken(db: Kysely<Database>, id: number) {
  await db.deleteFrom('personal_access_tokens').where('id', '=', id).execute();
}

export async function deleteUserAccessTokens(db: Kysely<Database>, userId: number) {
  await db.deleteFrom('personal_access_tokens').where('user_id', '=', userId).execute();
}

/** Ends the user's e-mailed links (all purposes, or the given ones) that were not used yet. */
export async function deleteUnusedUserTokens(
  db: Kysely<Database>,
  userId: number,
  purposes?: readonly UserTokenPurpose[],
) {
  let query = db.deleteFrom('user_tokens').where('user_id', '=', userId).where('used_at', 'is', null);
  if (purposes) query = query.where('purpose', 'in', purposes);
  await query.execute();
}

/** Replaces any unused token of the same purpose: only the newest e-mailed link works. */
export async function replaceUserToken(
  db: Kysely<Database>,
  values: {
    user_id: number;
    purpose: UserTokenPurpose;
    token_hash: string;
    expires_at: string;
    created_at: string;
  },
) {
  await db.transaction().execute(async (trx) => {
    await trx
      .deleteFrom('user_tokens')
      .where('user_id', '=', values.user_id)
      .where('purpose', '=', values.purpose)
      .where('used_at', 'is', null)
      .execute();
    await trx
      .insertInto('user_tokens')
      .values({ ...values, used_at: null })
      .execute();
  });
}

/**
 * Marks a live token used and returns its user id; undefined if the token is unknown, expired or
 * already used, or (with `userId`) was made for another user, which leaves it unused. The update
 * is the check, so two concurrent uses cannot both succeed.
 */
export async function useUserToken(
  db: Kysely<Database>,
  purpose: UserTokenPurpose,
  tokenHash: string,
  now: string,
  userId?: number,
): Promise<number | undefined> {
  let query = db
    .updateTable('user_tokens')
    .set({ used_at: now })
    .where('token_hash', '=', tokenHash)
    .where('purpose', '=', purpose);
  if (userId !== undefined) query = query.where('user_id', '=', userId);
  const row = await query
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .returning('user_id')
    .executeTakeFirst();
  return row?.user_id;
}

export function peekUserToken(
  db: Kysely<Database>,
  purpose: UserTokenPurpose,
  tokenHash: string,
  now: string,
) {
  return db
    .selectFrom('user_tokens')
    .select(['id', 'user_id'])
    .where('token_hash', '=', tokenHash)
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
}

export async function purgeExpiredTokens(db: Kysely<Database>, now: string) {
  await db.deleteFrom('user_tokens').where('expires_at', '<=', now).execute();
  await db.deleteFrom('personal_access_tokens').where('expires_at', '<=', now).execute();
}
