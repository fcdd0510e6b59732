import { pickLocale, TELEGRAM_LINK_TOKEN, translate, type Locale, type MessageKey } from '@kontrol/contracts';
import type { Database } from '@kontrol/db';
import type { FastifyBaseLogger } from 'fastify';
import type { Api } from 'grammy';
import type { Chat, ChatMemberUpdated, Message, Update } from 'grammy/types';
import type { Kysely } from 'kysely';
import { sha256 } from '../../lib/crypto.js';
import { nowIso } from '../../lib/time.js';
import {
  bindChat,
  blockChat,
  expireIntegration,
  findIntegrationByTokenHash,
  findIntegrationOwner,
  type BoundChat,
} from './telegram.repository.js';

/** The update kinds the bot asks Telegram for (getUpdates' `allowed_updates`). */
export const ALLOWED_UPDATES = ['message', 'my_chat_member'] as const;

/** `/start`, `/start <payload>` or `/start@bot_name <payload>`; the payload is the link token. */
const START = /^\/start(?:@(\w+))?(?:\s+(\S+))?\s*$/;
/** Any command, with the bot it is addressed to in a group (`/help@bot_name`). */
const COMMAND = /^\/\w+(?:@(\w+))?/;

export interface UpdateContext {
  db: Kysely<Database>;
  api: Api;
  log: FastifyBaseLogger;
  /** The bot's own @username, when known: commands addressed to other bots are not ours. */
  botUsername: string | undefined;
  /** Told before each answer the bot sends, so answers count towards the chat's rate limit. */
  onSend?: (chatId: string) => void;
}

/**
 * What the bot does with one update from Telegram: `/start <token>` binds the chat to the
 * integration the token was made for; other messages get a short help; `my_chat_member` with
 * the bot blocked, kicked or gone marks the chat's integrations `blocked`. In a group only the
 * group's administrators command the bot.
 */
export async function handleUpdate(context: UpdateContext, update: Update): Promise<void> {
  if (update.message) await handleMessage(context, update.message);
  else if (update.my_chat_member) await handleMembership(context, update.my_chat_member);
}

async function handleMessage(context: UpdateContext, message: Message) {
  const text = message.text?.trim();
  if (!text) return;
  const chatId = String(message.chat.id);
  const locale = pickLocale(message.from?.language_code);
  const isPrivate = message.chat.type === 'private';
  const start = START.exec(text);
  const command = COMMAND.exec(text);
  // In groups the bot hears only commands addressed to it, never the conversation.
  const forUs = start ? addressedToUs(context, start[1]) : command && addressedToUs(context, command[1]);
  if (!isPrivate && !forUs) return;
  // A group's notifications are its administrators' choice: a member's command is not obeyed.
  // Only a link is answered (once per try), so the bot cannot be made to talk into the group.
  const token = start && forUs ? start[2] : undefined;
  if (!isPrivate && !(await sentByGroupAdmin(context, message))) {
    if (token) await answer(context, chatId, locale, 'telegram.group_admin_only');
    return;
  }
  if (token) await bind(context, message.chat, token, locale);
  else await answer(context, chatId, locale, 'telegram.help');
}

/**
 * Whether the group's creator or an administrator sent the message: asked of Telegram
 * (`getChatMember`) at the moment, as rights change. An anonymous administrator posts as the
 * group itself (`sender_chat` is the chat). When Telegram cannot say, the answer is no.
 */
async function sentByGroupAdmin(context: UpdateContext, message: Message): Promise<boolean> {
  if (message.sender_chat?.id === message.chat.id) return true;
  if (!message.from) return false;
  try {
    const member = await context.api.getChatMember(message.chat.id, message.from.id);
    return member.status === 'creator' || member.status === 'administrator';
  } catch (error) {
    context.log.warn({ err: error, chatId: message.chat.id }, 'telegram: could not tell who sent a command');
    return false;
  }
}

function addressedToUs(context: UpdateContext, mention: string | undefined) {
  return (
    mention === undefined ||
    context.botUsername === undefined ||
    mention.toLowerCase() === context.botUsername.toLowerCase()
  );
}

/** The one-time link: a pending, unexpired token binds this chat; anything else gets a polite no. */
async function bind(context: UpdateContext, chat: Chat, token: string, senderLocale: Locale) {
  const chatId = String(chat.id);
  if (!TELEGRAM_LINK_TOKEN.test(token)) {
    await answer(context, chatId, senderLocale, 'telegram.link_invalid');
    return;
  }
  const tokenHash = sha256(token);
  const now = nowIso();
  const bound = await bindChat(context.db, tokenHash, now, chatOf(chat));
  if (bound) {
    context.log.info({ integrationId: bound.id, chatId }, 'telegram: chat bound');
    await answerOwner(context, bound.id, chatId, 'telegram.bound');
    return;
  }
  const found = await findIntegrationByTokenHash(context.db, tokenHash);
  if (found?.status === 'active' && found.chat_id === chatId) {
    await answerOwner(context, found.id, chatId, 'telegram.already_bound');
    return;
  }
  if (found?.status === 'pending') await expireIntegration(context.db, found.id, now);
  await answer(context, chatId, senderLocale, 'telegram.link_invalid');
}

/** An answer in the language of the user whose notifications the chat carries. */
async function answerOwner(context: UpdateContext, integrationId: number, chatId: string, key: MessageKey) {
  const owner = await findIntegrationOwner(context.db, integrationId);
  if (!owner) return;
  await answer(context, chatId, owner.locale, key, {
    user: owner.user_name,
    organisation: owner.organisation_name,
  });
}

/** The bot's answer; one that cannot be sent is logged, never retried (the person can ask again). */
async function answer(
  context: UpdateContext,
  chatId: string,
  locale: Locale,
  key: MessageKey,
  params: Record<string, string> = {},
) {
  context.onSend?.(chatId);
  try {
    await context.api.sendMessage(chatId, translate(locale, key, params), {
      link_preview_options: { is_disabled: true },
    });
  } catch (error) {
    context.log.warn({ err: error, chatId }, 'telegram: the bot could not answer in a chat');
  }
}

/** A private chat is named after the person; a group, channel or supergroup by its title. */
function chatOf(chat: Chat): BoundChat {
  const title =
    chat.type === 'private'
      ? [chat.first_name, chat.last_name].filter(Boolean).join(' ')
      : (chat.title ?? '');
  return {
    chatId: String(chat.id),
    title: (title || String(chat.id)).slice(0, 255),
    username: chat.username ? chat.username.slice(0, 64) : null,
  };
}

async function handleMembership(context: UpdateContext, update: ChatMemberUpdated) {
  const status = update.new_chat_member.status;
  if (status !== 'kicked' && status !== 'left') return;
  const chatId = String(update.chat.id);
  const reason =
    update.chat.type === 'private'
      ? 'Telegram: the user blocked the bot'
      : 'Telegram: the bot was removed from the chat';
  const blocked = await blockChat(context.db, chatId, nowIso(), reason);
  if (blocked.length > 0) {
    context.log.info(
      { chatId, integrationIds: blocked },
      'telegram: chat left the bot, integrations blocked',
    );
  }
}
