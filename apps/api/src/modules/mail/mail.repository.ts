import type { Database, MailOutboxTable } from '@kontrol/db';
import type { Insertable, Kysely } from 'kysely';

export async function insertMail(db: Kysely<Database>, values: Insertable<MailOutboxTable>) {
  const row = await db.insertInto('mail_outbox').values(values).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

/** Ids of messages due for (another) attempt, including ones a crashed sender left locked. */
export async function findDueMail(db: Kysely<Database>, now: string, limit: number) {
  const rows = await db
    .selectFrom('mail_outbox')
    .select('id')
    .where((eb) =>
      eb.or([
        eb.and([eb('status', '=', 'pending'), eb('next_attempt_at', '<=', now)]),
        eb.and([eb('status', '=', 'sending'), eb('locked_until', '<', now)]),
      ]),
    )
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map((row) => row.id);
}

/**
 * Takes a message for sending; the conditional update is the lock, so when several senders run
 * (several API instances) each message is taken by exactly one of them.
 */
export async function claimMail(db: Kysely<Database>, id: number, now: string, lockedUntil: string) {
  return db
    .updateTable('mail_outbox')
    .set({ status: 'sending', locked_until: lockedUntil })
    .where('id', '=', id)
    .where((eb) =>
      eb.or([
        eb.and([eb('status', '=', 'pending'), eb('next_attempt_at', '<=', now)]),
        eb.and([eb('status', '=', 'sending'), eb('locked_until', '<', now)]),
      ]),
    )
    .returningAll()
    .executeTakeFirst();
}

export async function markMailSent(db: Kysely<Database>, id: number, now: string) {
  await db
    .updateTable('mail_outbox')
    .set((eb) => ({
      status: 'sent',
      sent_at: now,
      locked_until: null,
      attempts: eb('attempts', '+', 1),
      last_error: null,
    }))
    .where('id', '=', id)
    .execute();
}

/**
 * Records a failed attempt, unless the sender's claim (`lockedUntil`) ran out and another sender
 * has taken the message since: that sender's outcome stands, so a slow failure cannot put a
 * message that went out back into the queue.
 */
export async function markMailFailed(
  db: Kysely<Database>,
  id: number,
  lockedUntil: string,
  values: { status: 'pending' | 'failed'; attempts: number; error: string; nextAttemptAt: string },
) {
  await db
    .updateTable('mail_outbox')
    .set({
      status: values.status,
      attempts: values.attempts,
      last_error: values.error.slice(0, 2000),
      next_attempt_at: values.nextAttemptAt,
      locked_until: null,
    })
    .where('id', '=', id)
    .where('status', '=', 'sending')
    .where('locked_until', '=', lockedUntil)
    .execute();
}

/** The newest `limit` messages to an address, whatever their status (the operator CLI's `mail:show`). */
export function latestMailTo(db: Kysely<Database>, to: string, limit: number) {
  return db
    .selectFrom('mail_outbox')
    .select(['id', 'subject', 'text_body', 'status', 'created_at'])
    .where('to_address', '=', to)
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}
