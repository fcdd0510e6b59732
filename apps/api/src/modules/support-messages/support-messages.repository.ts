import type { Database, SupportMessagesTable } from '@kontrol/db';
import type { Insertable, Kysely } from 'kysely';

/** SQL of the support conversation (docs/support-messages.md); every read is scoped to the organisation. */

/** The organisation's messages, newest first. */
export function messagesQuery(db: Kysely<Database>, organisationId: number) {
  return db
    .selectFrom('support_messages')
    .select(['id', 'from_support', 'author_id', 'author_name', 'text', 'read_at', 'created_at'])
    .where('organisation_id', '=', organisationId)
    .orderBy('id', 'desc');
}
export type SupportMessageRow = Awaited<
  ReturnType<ReturnType<typeof messagesQuery>['executeTakeFirstOrThrow']>
>;

export function findMessage(db: Kysely<Database>, organisationId: number, id: number) {
  return messagesQuery(db, organisationId).where('id', '=', id).executeTakeFirstOrThrow();
}

/** Support's messages the organisation has not read (index `support_messages_organisation_idx`). */
export async function countUnreadFromSupport(db: Kysely<Database>, organisationId: number): Promise<number> {
  const row = await db
    .selectFrom('support_messages')
    .select((eb) => eb.fn.countAll<number>().as('unread'))
    .where('organisation_id', '=', organisationId)
    .where('from_support', '=', 1)
    .where('read_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.unread);
}

export async function insertMessage(db: Kysely<Database>, values: Insertable<SupportMessagesTable>) {
  return (await db.insertInto('support_messages').values(values).returning('id').executeTakeFirstOrThrow())
    .id;
}

/**
 * Marks unread messages of one side of the organisation's conversation read at `now`: support's
 * (`fromSupport` 1, read by the organisation) or the organisation's (0, read by support), those up
 * to `upToId` only when given. Answers how many.
 */
export async function markRead(
  db: Kysely<Database>,
  organisationId: number,
  fromSupport: 0 | 1,
  now: string,
  upToId?: number,
): Promise<number> {
  let query = db
    .updateTable('support_messages')
    .set({ read_at: now })
    .where('organisation_id', '=', organisationId)
    .where('from_support', '=', fromSupport)
    .where('read_at', 'is', null);
  if (upToId !== undefined) query = query.where('id', '<=', upToId);
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Organisations' messages support has not read (of one organisation, or of all), oldest first. */
export function findUnreadFromOrganisations(db: Kysely<Database>, organisationId: number | undefined) {
  let query = db
    .selectFrom('support_messages')
    .innerJoin('organisations', 'organisations.id', 'support_messages.organisation_id')
    .select([
      'support_messages.id',
      'support_messages.organisation_id',
      'organisations.name as organisation_name',
      'support_messages.author_name',
      'support_messages.text',
      'support_messages.created_at',
    ])
    .where('support_messages.from_support', '=', 0)
    .where('support_messages.read_at', 'is', null);
  if (organisationId !== undefined)
    query = query.where('support_messages.organisation_id', '=', organisationId);
  return query.orderBy('support_messages.id').execute();
}

/** Marks the given messages of organisations read by support at `now`. */
export async function markMessagesRead(db: Kysely<Database>, ids: readonly number[], now: string) {
  for (let start = 0; start < ids.length; start += 1000) {
    await db
      .updateTable('support_messages')
      .set({ read_at: now })
      .where('id', 'in', ids.slice(start, start + 1000))
      .where('from_support', '=', 0)
      .where('read_at', 'is', null)
      .execute();
  }
}
