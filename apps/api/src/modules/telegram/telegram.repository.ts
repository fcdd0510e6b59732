import type { Database } from '@kontrol/db';
import type { Kysely } from 'kysely';
import { isUniqueViolation } from '../../lib/db-errors.js';

/** How much of an error text is kept on a row. */
const ERROR_MAX_LENGTH = 2000;

// ---------------------------------------------------------------------------------------------
// Binding chats (the bot's `/start <token>` and `my_chat_member` updates)
// ---------------------------------------------------------------------------------------------

export interface BoundChat {
  chatId: string;
  title: string;
  username: string | null;
}

/**
 * Binds the chat to the pending, unexpired integration whose link token has this hash. The
 * conditional update is the rule "one time": a second `/start` with the same token, in any chat
 * or process, finds the integration no longer pending. Undefined when nothing was bound.
 */
export async function bindChat(db: Kysely<Database>, tokenHash: string, now: string, chat: BoundChat) {
  return db
    .updateTable('integrations')
    .set({
      status: 'active',
      chat_id: chat.chatId,
      chat_title: chat.title,
      chat_username: chat.username,
      bound_at: now,
      link_expires_at: null,
      last_error: null,
      updated_at: now,
    })
    .where('link_token_hash', '=', tokenHash)
    .where('status', '=', 'pending')
    .where('link_expires_at', '>', now)
    .returning(['id', 'user_id'])
    .executeTakeFirst();
}

/** The integration a link token names, in any organisation (the bot does not know whose it is). */
export function findIntegrationByTokenHash(db: Kysely<Database>, tokenHash: string) {
  return db
    .selectFrom('integrations')
    .select(['id', 'status', 'chat_id', 'user_id', 'link_expires_at'])
    .where('link_token_hash', '=', tokenHash)
    .executeTakeFirst();
}

/** A pending integration past its link's expiry becomes `expired`. */
export async function expireIntegration(db: Kysely<Database>, integrationId: number, now: string) {
  await db
    .updateTable('integrations')
    .set({ status: 'expired', updated_at: now })
    .where('id', '=', integrationId)
    .where('status', '=', 'pending')
    .where('link_expires_at', '<=', now)
    .execute();
}

/** Whose notifications an integration carries: the words of the bot's answer. */
export function findIntegrationOwner(db: Kysely<Database>, integrationId: number) {
  return db
    .selectFrom('integrations')
    .innerJoin('users', 'users.id', 'integrations.user_id')
    .innerJoin('organisations', 'organisations.id', 'integrations.organisation_id')
    .select(['users.name as user_name', 'users.locale', 'organisations.name as organisation_name'])
    .where('integrations.id', '=', integrationId)
    .executeTakeFirst();
}

/**
 * The integrations bound to a chat that left the bot (blocked it, kicked it from the group, or
 * was deleted) become `blocked`, and their unsent messages `skipped`. Ids of those it blocked.
 */
export async function blockChat(db: Kysely<Database>, chatId: string, now: string, error: string) {
  const rows = await db
    .selectFrom('integrations')
    .select('id')
    .where('chat_id', '=', chatId)
    .where('status', '=', 'active')
    .execute();
  const blocked: number[] = [];
  for (const { id } of rows) {
    if (await blockIntegration(db, id, now, error)) blocked.push(id);
  }
  return blocked;
}

/** One integration becomes `blocked` and its unsent messages `skipped`; false if it was not active. */
export async function blockIntegration(
  db: Kysely<Database>,
  integrationId: number,
  now: string,
  error: string,
) {
  const result = await db
    .updateTable('integrations')
    .set({
      status: 'blocked',
      blocked_at: now,
      last_error: error.slice(0, ERROR_MAX_LENGTH),
      updated_at: now,
    })
    .where('id', '=', integrationId)
    .where('status', '=', 'active')
    .executeTakeFirst();
  await skipUnsent(db, integrationId, 'the chat is blocked');
  return Number(result.numUpdatedRows) > 0;
}

/** Every message of the integration not yet sent (pending, or claimed by a sender) is skipped. */
async function skipUnsent(db: Kysely<Database>, integrationId: number, reason: string) {
  await db
    .updateTable('telegram_outbox')
    .set({ status: 'skipped', locked_until: null, last_error: reason })
    .where('integration_id', '=', integrationId)
    .where('status', 'in', ['pending', 'sending'])
    .execute();
}

/**
 * A group that became a supergroup has a new chat id (Telegram's `migrate_to_chat_id`): the
 * integration and its unsent messages move to it.
 */
export async function moveChat(
  db: Kysely<Database>,
  integrationId: number,
  fromChatId: string,
  toChatId: string,
  now: string,
) {
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('integrations')
      .set({ chat_id: toChatId, updated_at: now })
      .where('id', '=', integrationId)
      .where('chat_id', '=', fromChatId)
      .execute();
    await trx
      .updateTable('telegram_outbox')
      .set({ chat_id: toChatId })
      .where('integration_id', '=', integrationId)
      .where('chat_id', '=', fromChatId)
      .where('status', 'in', ['pending', 'sending'])
      .execute();
  });
}

// ---------------------------------------------------------------------------------------------
// The outbox
// ---------------------------------------------------------------------------------------------

/**
 * Messages due for (another) attempt, oldest first, including ones a crashed sender left
 * locked; chats in `skipChats` (waiting for their rate limit) are left out so other chats go on.
 */
export async function findDueMessages(
  db: Kysely<Database>,
  now: string,
  limit: number,
  skipChats: readonly string[],
) {
  let query = db
    .selectFrom('telegram_outbox')
    .select(['id', 'chat_id'])
    .where((eb) =>
      eb.or([
        eb.and([eb('status', '=', 'pending'), eb('next_attempt_at', '<=', now)]),
        eb.and([eb('status', '=', 'sending'), eb('locked_until', '<', now)]),
      ]),
    );
  if (skipChats.length > 0) query = query.where('chat_id', 'not in', skipChats);
  return query.orderBy('id').limit(limit).execute();
}

/**
 * Takes a message for sending, with its integration's status; the conditional update is the lock,
 * so when several senders run each message is taken by exactly one of them.
 */
export async function claimMessage(db: Kysely<Database>, id: number, now: string, lockedUntil: string) {
  const row = await db
    .updateTable('telegram_outbox')
    .set({ status: 'sending', locked_until: lockedUntil })
    .where('id', '=', id)
    .where((eb) =>
      eb.or([
        eb.and([eb('status', '=', 'pending'), eb('next_attempt_at', '<=', now)]),
        eb.and([eb('status', '=', 'sending'), eb('locked_until', '<', now)]),
      ]),
    )
    .returning(['id', 'integration_id', 'chat_id', 'text', 'attempts'])
    .executeTakeFirst();
  if (!row) return undefined;
  const integration = await db
    .selectFrom('integrations')
    .select(['status', 'chat_id'])
    .where('id', '=', row.integration_id)
    .executeTakeFirst();
  return { ...row, integration };
}
export type ClaimedMessage = NonNullable<Awaited<ReturnType<typeof claimMessage>>>;

/**
 * The outcome of an attempt, written only while the sender's claim (`lockedUntil`) still holds:
 * a sender whose claim ran out and was taken over cannot undo the other sender's outcome.
 */
function ownClaim(db: Kysely<Database>, id: number, lockedUntil: string) {
  return db
    .updateTable('telegram_outbox')
    .where('id', '=', id)
    .where('status', '=', 'sending')
    .where('locked_until', '=', lockedUntil);
}

export async function markMessageSent(
  db: Kysely<Database>,
  message: { id: number; integration_id: number },
  lockedUntil: string,
  now: string,
) {
  await ownClaim(db, message.id, lockedUntil)
    .set((eb) => ({
      status: 'sent',
      sent_at: now,
      locked_until: null,
      attempts: eb('attempts', '+', 1),
      last_error: null,
    }))
    .execute();
  await db
    .updateTable('integrations')
    .set({ last_delivery_at: now })
    .where('id', '=', message.integration_id)
    .execute();
}

/** Back to the queue, due at `nextAttemptAt`; `attempts` counts failures, not rate limits. */
export async function markMessageRetry(
  db: Kysely<Database>,
  id: number,
  lockedUntil: string,
  values: { attempts: number; error: string; nextAttemptAt: string },
) {
  await ownClaim(db, id, lockedUntil)
    .set({
      status: 'pending',
      attempts: values.attempts,
      last_error: values.error.slice(0, ERROR_MAX_LENGTH),
      next_attempt_at: values.nextAttemptAt,
      locked_until: null,
    })
    .execute();
}

/** Given up (`failed`), or not sent on purpose (`skipped`: the integration is not active). */
export async function markMessageDone(
  db: Kysely<Database>,
  id: number,
  lockedUntil: string,
  values: { status: 'failed' | 'skipped'; attempts: number; error: string },
) {
  await ownClaim(db, id, lockedUntil)
    .set({
      status: values.status,
      attempts: values.attempts,
      last_error: values.error.slice(0, ERROR_MAX_LENGTH),
      locked_until: null,
    })
    .execute();
}

// ---------------------------------------------------------------------------------------------
// Leases: one holder at a time for work that must run once per deployment
// ---------------------------------------------------------------------------------------------

/**
 * Takes or renews the lease `name` for `holder` until `expiresAt`: renewed when this holder has
 * it, taken over when it has expired, created when there is none. True when `holder` has it now.
 */
export async function acquireLease(
  db: Kysely<Database>,
  name: string,
  holder: string,
  now: string,
  expiresAt: string,
): Promise<boolean> {
  const updated = await db
    .updateTable('job_leases')
    .set({ holder, expires_at: expiresAt })
    .where('name', '=', name)
    .where((eb) => eb.or([eb('holder', '=', holder), eb('expires_at', '<', now)]))
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) > 0) return true;
  try {
    await db.insertInto('job_leases').values({ name, holder, expires_at: expiresAt }).execute();
    return true;
  } catch (error) {
    // Another holder has it (or created it first).
    if (isUniqueViolation(error)) return false;
    throw error;
  }
}

/** Gives the lease up at once (a clean shutdown), so another process need not wait for it to expire. */
export async function releaseLease(db: Kysely<Database>, name: string, holder: string) {
  await db.deleteFrom('job_leases').where('name', '=', name).where('holder', '=', holder).execute();
}
