import { SUPPORT_MESSAGE_MAX_LENGTH, type SupportMessage } from '@kontrol/contracts';
import type { Database } from '@kontrol/db';
import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { nowIso } from '../../lib/time.js';
import { paginate } from '../../lib/pagination.js';
import {
  countUnreadFromSupport,
  findMessage,
  findUnreadFromOrganisations,
  insertMessage,
  markMessagesRead,
  markRead,
  messagesQuery,
} from './support-messages.repository.js';
import { toSupportMessage } from './support-messages.presenter.js';

/** The name support signs with when the operator gives none (`support:reply --name`). */
export const DEFAULT_SUPPORT_NAME = 'Поддержка Kontrol';

export { countUnreadFromSupport as unreadCount };

/** One page of the organisation's conversation with support, newest first, with its unread count. */
export async function listSupportMessages(
  db: Kysely<Database>,
  request: FastifyRequest,
  organisationId: number,
  page: { page: number; per_page: number },
) {
  const [paged, unread] = await Promise.all([
    paginate(request, messagesQuery(db, organisationId), page),
    countUnreadFromSupport(db, organisationId),
  ]);
  return { ...paged, data: paged.data.map(toSupportMessage), meta: { ...paged.meta, unread } };
}

/** `POST /api/messages`: a message of the signed-in user to support, signed with their name. */
export async function postMessage(
  db: Kysely<Database>,
  user: { id: number; organisationId: number; name: string },
  text: string,
): Promise<SupportMessage> {
  const id = await insertMessage(db, {
    organisation_id: user.organisationId,
    from_support: 0,
    author_id: user.id,
    author_name: user.name,
    text,
    read_at: null,
    created_at: nowIso(),
  });
  return toSupportMessage(await findMessage(db, user.organisationId, id));
}

/**
 * `POST /api/messages/read`: support's messages (up to `upToId`, else all) count as read by the
 * organisation; answers how many remain unread.
 */
export async function markSupportMessagesRead(
  db: Kysely<Database>,
  organisationId: number,
  upToId: number | undefined,
): Promise<number> {
  await markRead(db, organisationId, 1, nowIso(), upToId);
  return countUnreadFromSupport(db, organisationId);
}

export class SupportInputError extends Error {}

/**
 * `support:reply`: support's answer to the organisation, signed `name`. Support has read the
 * organisation's messages by then, so they are marked read. Answers the message and how many
 * messages were marked.
 */
export async function replyAsSupport(
  db: Kysely<Database>,
  reply: { organisationId: number; text: string; name: string },
): Promise<{ message: SupportMessage; markedRead: number }> {
  const text = reply.text.trim();
  const name = reply.name.trim();
  if (text === '' || text.length > SUPPORT_MESSAGE_MAX_LENGTH) {
    throw new SupportInputError(`--text must be 1 to ${SUPPORT_MESSAGE_MAX_LENGTH} characters`);
  }
  if (name === '' || name.length > 255) throw new SupportInputError('--name must be 1 to 255 characters');
  return db.transaction().execute(async (trx) => {
    const now = nowIso();
    const markedRead = await markRead(trx, reply.organisationId, 0, now);
    const id = await insertMessage(trx, {
      organisation_id: reply.organisationId,
      from_support: 1,
      author_id: null,
      author_name: name,
      text,
      read_at: null,
      created_at: now,
    });
    return { message: toSupportMessage(await findMessage(trx, reply.organisationId, id)), markedRead };
  });
}

/**
 * `support:inbox`: the organisations' messages support has not read (of one organisation, or of
 * all), oldest first; exactly those are marked read, so one written meanwhile waits for the next run.
 */
export async function takeSupportInbox(db: Kysely<Database>, organisationId: number | undefined) {
  return db.transaction().execute(async (trx) => {
    const messages = await findUnreadFromOrganisations(trx, organisationId);
    await markMessagesRead(
      trx,
      messages.map((message) => message.id),
      nowIso(),
    );
    return messages;
  });
}
