import {
  TELEGRAM_LINK_TOKEN,
  TELEGRAM_LINK_TTL_MINUTES,
  type Integration,
  type integrationBodySchema,
  type integrationCreatedSchema,
  type integrationsListSchema,
  type telegramBindingSchema,
} from '@kontrol/contracts';
import type { Database } from '@kontrol/db';
import type { Kysely } from 'kysely';
import type { z } from 'zod';
import { randomSecret, sha256 } from '../../lib/crypto.js';
import { FieldValidationError, notFound } from '@kontrol/server-kit';
import { minutesFromNow, nowIso } from '../../lib/time.js';
import type { TelegramService } from '../telegram/telegram.service.js';
import {
  deleteIntegration as deleteIntegrationRow,
  expireStaleLinks,
  findActiveUser,
  findIntegration,
  findIntegrationByTokenHash,
  insertIntegration,
  listIntegrations as listIntegrationRows,
  type IntegrationRow,
} from './integrations.repository.js';

export type IntegrationInput = z.output<typeof integrationBodySchema>;
/** What the integrations need of the bot. */
export type TelegramBot = Pick<TelegramService, 'configured' | 'botUsername' | 'knownBotUsername'>;

/** 24 random bytes: 32 URL-safe characters, inside Telegram's 64 for a `/start` parameter. */
const LINK_TOKEN_BYTES = 24;

function present(row: IntegrationRow): Integration {
  return {
    id: row.id,
    kind: row.kind,
    name: row.name,
    status: row.status,
    user: { id: row.user_id, name: row.user_name },
    chat: row.chat_title === null ? null : { title: row.chat_title, username: row.chat_username },
    link_expires_at: row.link_expires_at,
    bound_at: row.bound_at,
    last_delivery_at: row.last_delivery_at,
    last_error: row.last_error,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** The deep link that opens the bot with `/start <token>`. */
function deepLink(botUsername: string, token: string) {
  return `https://t.me/${botUsername}?start=${token}`;
}

export async function listIntegrations(
  db: Kysely<Database>,
  telegram: TelegramBot,
  organisationId: number,
): Promise<z.infer<typeof integrationsListSchema>> {
  await expireStaleLinks(db, organisationId, nowIso());
  const rows = await listIntegrationRows(db, organisationId);
  return {
    data: rows.map(present),
    meta: {
      telegram: {
        configured: telegram.configured,
        bot_username: (await telegram.knownBotUsername()) ?? null,
      },
    },
  };
}

export async function getIntegration(
  db: Kysely<Database>,
  organisationId: number,
  integrationId: number,
): Promise<Integration> {
  await expireStaleLinks(db, organisationId, nowIso());
  const row = await findIntegration(db, organisationId, integrationId);
  if (!row) throw notFound();
  return present(row);
}

/**
 * A Telegram integration for `user_id` (default: the caller), waiting for its chat: the answer
 * holds the one-time link token, of which only the hash is kept.
 */
export async function createIntegration(
  db: Kysely<Database>,
  telegram: TelegramBot,
  caller: { id: number; organisationId: number },
  input: IntegrationInput,
): Promise<z.infer<typeof integrationCreatedSchema>> {
  if (!telegram.configured) {
    throw new FieldValidationError({ kind: ['integration.telegram_not_configured'] });
  }
  const user = await findActiveUser(db, caller.organisationId, input.user_id ?? caller.id);
  if (!user) throw new FieldValidationError({ user_id: ['integration.user'] });
  // Before anything is written: without the bot's name there is no link to give.
  const botUsername = await telegram.botUsername();
  const token = randomSecret(LINK_TOKEN_BYTES);
  const now = nowIso();
  const expiresAt = minutesFromNow(TELEGRAM_LINK_TTL_MINUTES);
  const id = await insertIntegration(db, {
    organisation_id: caller.organisationId,
    kind: input.kind,
    name: input.name,
    user_id: user.id,
    status: 'pending',
    link_token_hash: sha256(token),
    link_expires_at: expiresAt,
    created_at: now,
    updated_at: now,
  });
  const row = await findIntegration(db, caller.organisationId, id);
  if (!row) throw notFound();
  return {
    data: present(row),
    link: { token, url: deepLink(botUsername, token), expires_at: row.link_expires_at ?? expiresAt },
  };
}

export async function deleteIntegration(db: Kysely<Database>, organisationId: number, integrationId: number) {
  if (!(await deleteIntegrationRow(db, organisationId, integrationId))) throw notFound();
}

/**
 * The binding a link token started, for the console's waiting page: `pending` (with the link),
 * `active` (with the chat), `expired` (stored as such once seen) or `blocked`. A token that is
 * not the organisation's is not found.
 */
export async function telegramBinding(
  db: Kysely<Database>,
  telegram: TelegramBot,
  organisationId: number,
  token: string,
): Promise<z.infer<typeof telegramBindingSchema>> {
  if (!TELEGRAM_LINK_TOKEN.test(token)) throw notFound();
  await expireStaleLinks(db, organisationId, nowIso());
  const row = await findIntegrationByTokenHash(db, organisationId, sha256(token));
  if (!row) throw notFound();
  // A pending binding needs its link (a 503 while Telegram cannot be reached); the others show it if known.
  const botUsername =
    row.status === 'pending' && telegram.configured
      ? await telegram.botUsername()
      : await telegram.knownBotUsername();
  return {
    data: {
      integration_id: row.id,
      status: row.status,
      url: botUsername ? deepLink(botUsername, token) : '',
      expires_at: row.link_expires_at,
      chat: row.chat_title === null ? null : { title: row.chat_title, username: row.chat_username },
    },
  };
}
