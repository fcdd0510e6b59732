import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Chat, Update, User } from 'grammy/types';
import { afterAll, beforeAll } from 'vitest';

/** A chat as Telegram describes it in updates. */
export type FakeChat =
  | { id: number; type: 'private'; first_name: string; last_name?: string; username?: string }
  | { id: number; type: 'group' | 'supergroup'; title: string; username?: string };

/** A ChatMember's `status` in the Bot API. */
export type FakeMemberStatus = 'creator' | 'administrator' | 'member' | 'restricted' | 'left' | 'kicked';

/** A Bot API error answer: `{ok: false, error_code, description, parameters}`. */
export interface FakeBotApiError {
  error_code: number;
  description: string;
  parameters?: { retry_after?: number; migrate_to_chat_id?: number };
}

export interface FakeCall {
  method: string;
  params: Record<string, unknown>;
  /** `Date.now()` when the request arrived. */
  at: number;
}

export interface FakeSentMessage {
  chatId: string;
  text: string;
  params: Record<string, unknown>;
  at: number;
}

export interface FakeTelegram {
  /** For TELEGRAM_API_ROOT: `http://127.0.0.1:<port>`. */
  apiRoot: string;
  /** For TELEGRAM_BOT_TOKEN: the only token the fake accepts (others get 401). */
  token: string;
  /** The bot's @username (getMe). */
  botUsername: string;
  /** The bot as a Telegram user. */
  bot: User;
  /** Every accepted method call, oldest first. */
  readonly calls: FakeCall[];
  /** Every message the bot sent successfully, oldest first. */
  readonly sent: FakeSentMessage[];
  messagesTo(chatId: number | string): FakeSentMessage[];
  /** Calls of one method, oldest first. */
  callsOf(method: string): FakeCall[];
  /** Queues an update for getUpdates (answering a waiting long poll at once); its update_id. */
  pushUpdate(update: Omit<Update, 'update_id'>): number;
  /** A person writes `text` in `chat` (a `message` update; commands carry their bot_command entity). */
  write(chat: FakeChat, text: string, from?: Partial<User>): number;
  /** The person {@link write} makes the sender in `chat` when the test names none. */
  senderIn(chat: FakeChat): User;
  /**
   * A person's standing in a group, as getChatMember answers it: someone who wrote in the group
   * is a `member` until told otherwise; someone never seen there has `left`.
   */
  setChatMemberStatus(chat: FakeChat, userId: number, status: FakeMemberStatus): void;
  /** The bot's membership of `chat` changes (a `my_chat_member` update): `kicked` is a block. */
  setMemberStatus(chat: FakeChat, status: 'member' | 'kicked' | 'left'): number;
  /**
   * The next sendMessage calls to `chatId` answer these errors, one each, in order; `disconnect`
   * drops the connection without an answer (a network error).
   */
  failSends(chatId: number | string, ...errors: (FakeBotApiError | 'disconnect')[]): void;
  /** Every sendMessage to `chatId` answers 403 "Forbidden: bot was blocked by the user". */
  block(chatId: number | string): void;
  /** A webhook is set: getUpdates answers 409 until deleteWebhook. */
  setWebhook(url: string): void;
  readonly webhookUrl: string;
  /** Updates queued and not yet confirmed by a getUpdates offset. */
  readonly unconfirmed: number;
  /** The most getUpdates requests that were open at one moment (Telegram allows one). */
  readonly maxConcurrentPolls: number;
  /** getUpdates requests ended by a newer one with 409 "terminated by other getUpdates request". */
  readonly conflicts: number;
  /** The first sent message (already sent or still to come) matching `predicate`. */
  waitForMessage(
    predicate: (message: FakeSentMessage) => boolean,
    timeoutMs?: number,
  ): Promise<FakeSentMessage>;
  /** Resolves once `condition()` holds, checking every 10 ms; rejects after `timeoutMs`. */
  waitUntil(condition: () => boolean, timeoutMs?: number, what?: string): Promise<void>;
  close(): Promise<void>;
}

interface WaitingPoll {
  response: ServerResponse;
  offset: number | undefined;
  limit: number;
  timer: NodeJS.Timeout;
}

const BOT_ID = 7_000_000_001;

/**
 * A Telegram Bot API server on an ephemeral port of 127.0.0.1, speaking the real HTTP shapes:
 * `POST /bot<token>/<method>` (or GET) with a JSON, form or query body, answering
 * `{ok: true, result}` or `{ok: false, error_code, description, parameters}` with the error's
 * HTTP status. It implements getMe, getUpdates (long polling with offsets, and the 409 a second
 * concurrent poll causes), sendMessage, getChatMember (the ChatMember shapes of each status),
 * deleteWebhook and getWebhookInfo, and lets a test queue updates, set who administers a group,
 * script send failures (429 with retry_after, 5xx) and block chats.
 */
export async function startFakeTelegram(options: { botUsername?: string } = {}): Promise<FakeTelegram> {
  const token = `${BOT_ID}:FAKE-${Math.random().toString(36).slice(2)}-token-for-tests`;
  const botUsername = options.botUsername ?? 'kontrol_test_bot';
  const bot: User = { id: BOT_ID, is_bot: true, first_name: 'Kontrol', username: botUsername };
  const calls: FakeCall[] = [];
  const sent: FakeSentMessage[] = [];
  let updates: Update[] = [];
  let nextUpdateId = 100;
  let nextMessageId = 1;
  const waiting = new Set<WaitingPoll>();
  const failures = new Map<string, (FakeBotApiError | 'disconnect')[]>();
  const blocked = new Set<string>();
  /** chat id → user id → status, for getChatMember. */
  const members = new Map<string, Map<number, FakeMemberStatus>>();
  const knownUsers = new Map<number, User>();
  const setMember = (chatId: string, user: User, status: FakeMemberStatus) => {
    knownUsers.set(user.id, user);
    const chatMembers = members.get(chatId) ?? new Map<number, FakeMemberStatus>();
    chatMembers.set(user.id, status);
    members.set(chatId, chatMembers);
  };
  let webhookUrl = '';
  let maxConcurrentPolls = 0;
  let conflicts = 0;
  const messageWaiters = new Set<{
    predicate: (m: FakeSentMessage) => boolean;
    resolve: (m: FakeSentMessage) => void;
  }>();

  const send = (response: ServerResponse, status: number, body: unknown) => {
    if (response.writableEnded || response.destroyed) return;
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(JSON.stringify(body));
  };
  const ok = (response: ServerResponse, result: unknown) => send(response, 200, { ok: true, result });
  const fail = (response: ServerResponse, error: FakeBotApiError) =>
    send(response, error.error_code, { ok: false, ...error });

  const confirm = (offset: number | undefined) => {
    if (offset !== undefined) updates = updates.filter((update) => update.update_id >= offset);
  };
  const answerPoll = (poll: WaitingPoll) => {
    clearTimeout(poll.timer);
    waiting.delete(poll);
    ok(poll.response, updates.slice(0, poll.limit));
  };

  /** A getUpdates once no webhook stands in the way. */
  const pollUpdates = (params: Record<string, unknown>, response: ServerResponse) => {
    // Telegram serves one getUpdates per bot: a newer request ends the one waiting.
    maxConcurrentPolls = Math.max(maxConcurrentPolls, waiting.size + 1);
    for (const poll of [...waiting]) {
      clearTimeout(poll.timer);
      waiting.delete(poll);
      conflicts += 1;
      fail(poll.response, {
        error_code: 409,
        description:
          'Conflict: terminated by other getUpdates request; make sure that only one bot instance is running',
      });
    }
    const offset = typeof params.offset === 'number' ? params.offset : undefined;
    confirm(offset);
    const limit = typeof params.limit === 'number' ? Math.min(Math.max(params.limit, 1), 100) : 100;
    const timeout = typeof params.timeout === 'number' ? params.timeout : 0;
    if (updates.length > 0 || timeout <= 0) {
      ok(response, updates.slice(0, limit));
      return;
    }
    const poll: WaitingPoll = {
      response,
      offset,
      limit,
      timer: setTimeout(() => answerPoll(poll), timeout * 1000),
    };
    waiting.add(poll);
    response.on('close', () => {
      clearTimeout(poll.timer);
      waiting.delete(poll);
    });
  };

  const methods: Record<string, (params: Record<string, unknown>, response: ServerResponse) => void> = {
    getme: (_params, response) =>
      ok(response, {
        ...bot,
        can_join_groups: true,
        can_read_all_group_messages: false,
        supports_inline_queries: false,
      }),
    getwebhookinfo: (_params, response) =>
      ok(response, { url: webhookUrl, has_custom_certificate: false, pending_update_count: updates.length }),
    deletewebhook: (params, response) => {
      webhookUrl = '';
      if (params.drop_pending_updates === true) updates = [];
      ok(response, true);
    },
    getupdates: (params, response) => {
      if (webhookUrl) {
        fail(response, {
          error_code: 409,
          description:
            "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first",
        });
        return;
      }
      // A poll its client has just given up (a process that stopped) may still look open here:
      // the close of its connection can be read after this request in the same turn of the event
      // loop. Those events go first, so only a poll still waited for counts as concurrent.
      if (waiting.size === 0) pollUpdates(params, response);
      else
        setImmediate(() => {
          if (!response.writableEnded && !response.destroyed) pollUpdates(params, response);
        });
    },
    getchatmember: (params, response) => {
      const chatId =
        typeof params.chat_id === 'number' || typeof params.chat_id === 'string'
          ? String(params.chat_id)
          : '';
      const userId = typeof params.user_id === 'number' ? params.user_id : Number.NaN;
      if (!chatId) return fail(response, { error_code: 400, description: 'Bad Request: chat_id is empty' });
      if (!Number.isInteger(userId))
        return fail(response, { error_code: 400, description: 'Bad Request: user_id is invalid' });
      const chatMembers = members.get(chatId);
      if (!chatMembers)
        return fail(response, { error_code: 400, description: 'Bad Request: chat not found' });
      const user = knownUsers.get(userId) ?? { id: userId, is_bot: false, first_name: 'Someone' };
      ok(response, chatMemberOf(user, chatMembers.get(userId) ?? 'left'));
    },
    sendmessage: (params, response) => {
      const chatId =
        typeof params.chat_id === 'number' || typeof params.chat_id === 'string'
          ? String(params.chat_id)
          : '';
      const text = typeof params.text === 'string' ? params.text : '';
      if (!chatId) return fail(response, { error_code: 400, description: 'Bad Request: chat_id is empty' });
      if (!text.trim())
        return fail(response, { error_code: 400, description: 'Bad Request: message text is empty' });
      if (text.length > 4096)
        return fail(response, { error_code: 400, description: 'Bad Request: message is too long' });
      if (blocked.has(chatId)) {
        return fail(response, { error_code: 403, description: 'Forbidden: bot was blocked by the user' });
      }
      const scripted = failures.get(chatId)?.shift();
      if (scripted === 'disconnect') return void response.socket?.destroy();
      if (scripted) return fail(response, scripted);
      const message: FakeSentMessage = { chatId, text, params, at: Date.now() };
      sent.push(message);
      for (const waiter of messageWaiters) {
        if (waiter.predicate(message)) {
          messageWaiters.delete(waiter);
          waiter.resolve(message);
        }
      }
      const chat = { id: Number(chatId), type: Number(chatId) < 0 ? 'group' : 'private' } as Chat;
      const result = {
        message_id: nextMessageId,
        date: Math.floor(Date.now() / 1000),
        chat,
        from: bot,
        text,
      };
      nextMessageId += 1;
      ok(response, result);
    },
  };

  const server = createServer((request, response) => {
    void handle(request, response).catch((error: unknown) => {
      send(response, 500, {
        ok: false,
        error_code: 500,
        description: `Internal Server Error: ${String(error)}`,
      });
    });
  });

  async function handle(request: IncomingMessage, response: ServerResponse) {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const match = /^\/bot([^/]+)\/([A-Za-z]+)$/.exec(url.pathname);
    if (!match) return fail(response, { error_code: 404, description: 'Not Found' });
    const [, givenToken, method = ''] = match;
    if (givenToken !== token) return fail(response, { error_code: 401, description: 'Unauthorized' });
    const params = { ...fromForm(url.searchParams), ...(await readBody(request)) };
    const run = methods[method.toLowerCase()];
    if (!run) return fail(response, { error_code: 404, description: 'Not Found: method not found' });
    calls.push({ method, params, at: Date.now() });
    run(params, response);
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;

  const pushUpdate = (update: Omit<Update, 'update_id'>) => {
    const id = nextUpdateId;
    nextUpdateId += 1;
    updates.push({ ...update, update_id: id });
    for (const poll of [...waiting]) answerPoll(poll);
    return id;
  };

  const personOf = (chat: FakeChat, from: Partial<User>): User => ({
    id: chat.type === 'private' ? chat.id : 9_000_000 + Math.abs(chat.id % 1_000_000),
    is_bot: false,
    first_name: chat.type === 'private' ? chat.first_name : 'Member',
    ...(chat.type === 'private' && chat.username ? { username: chat.username } : {}),
    language_code: 'en',
    ...from,
  });

  const waitUntil = (condition: () => boolean, timeoutMs = 5_000, what = 'condition') =>
    new Promise<void>((resolve, reject) => {
      const started = Date.now();
      const check = () => {
        if (condition()) return resolve();
        if (Date.now() - started > timeoutMs)
          return reject(new Error(`fake Telegram: no ${what} within ${timeoutMs} ms`));
        setTimeout(check, 10);
      };
      check();
    });

  return {
    apiRoot: `http://127.0.0.1:${port}`,
    token,
    botUsername,
    bot,
    calls,
    sent,
    messagesTo: (chatId) => sent.filter((message) => message.chatId === String(chatId)),
    callsOf: (method) => calls.filter((call) => call.method.toLowerCase() === method.toLowerCase()),
    pushUpdate,
    senderIn: (chat) => personOf(chat, {}),
    setChatMemberStatus(chat, userId, status) {
      setMember(
        String(chat.id),
        knownUsers.get(userId) ?? { id: userId, is_bot: false, first_name: 'Someone' },
        status,
      );
    },
    write(chat, text, from = {}) {
      const command = /^\/\w+(@\w+)?/.exec(text);
      const sender = personOf(chat, from);
      if (chat.type !== 'private' && !members.get(String(chat.id))?.has(sender.id)) {
        setMember(String(chat.id), sender, 'member');
      }
      const message = {
        message_id: nextMessageId,
        date: Math.floor(Date.now() / 1000),
        chat,
        from: sender,
        text,
        ...(command ? { entities: [{ type: 'bot_command', offset: 0, length: command[0].length }] } : {}),
      } as Update['message'];
      nextMessageId += 1;
      return pushUpdate({ message });
    },
    setMemberStatus(chat, status) {
      const member = (s: string) => ({ user: bot, status: s, ...(s === 'kicked' ? { until_date: 0 } : {}) });
      return pushUpdate({
        my_chat_member: {
          chat,
          from: personOf(chat, {}),
          date: Math.floor(Date.now() / 1000),
          old_chat_member: member('member'),
          new_chat_member: member(status),
        },
      } as Omit<Update, 'update_id'>);
    },
    failSends(chatId, ...errors) {
      const key = String(chatId);
      failures.set(key, [...(failures.get(key) ?? []), ...errors]);
    },
    block(chatId) {
      blocked.add(String(chatId));
    },
    setWebhook(url) {
      webhookUrl = url;
    },
    get webhookUrl() {
      return webhookUrl;
    },
    get unconfirmed() {
      return updates.length;
    },
    get maxConcurrentPolls() {
      return maxConcurrentPolls;
    },
    get conflicts() {
      return conflicts;
    },
    waitForMessage(predicate, timeoutMs = 5_000) {
      const found = sent.find(predicate);
      if (found) return Promise.resolve(found);
      return new Promise<FakeSentMessage>((resolve, reject) => {
        const waiter = {
          predicate,
          resolve: (message: FakeSentMessage) => {
            clearTimeout(timer);
            resolve(message);
          },
        };
        const timer = setTimeout(() => {
          messageWaiters.delete(waiter);
          const seen = sent.map((m) => `${m.chatId}: ${m.text.slice(0, 40)}`).join('; ') || 'none';
          reject(new Error(`fake Telegram: no matching message within ${timeoutMs} ms (sent: ${seen})`));
        }, timeoutMs);
        messageWaiters.add(waiter);
      });
    },
    waitUntil,
    close: () =>
      new Promise<void>((resolve) => {
        for (const poll of [...waiting]) answerPoll(poll);
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** A ChatMember as the Bot API answers it for each status (the rights an administrator holds included). */
function chatMemberOf(user: User, status: FakeMemberStatus): Record<string, unknown> {
  switch (status) {
    case 'creator':
      return { status, user, is_anonymous: false };
    case 'administrator':
      return {
        status,
        user,
        can_be_edited: false,
        is_anonymous: false,
        can_manage_chat: true,
        can_delete_messages: true,
        can_manage_video_chats: true,
        can_restrict_members: true,
        can_promote_members: false,
        can_change_info: true,
        can_invite_users: true,
        can_post_stories: false,
        can_edit_stories: false,
        can_delete_stories: false,
        can_pin_messages: true,
      };
    case 'restricted':
      return {
        status,
        user,
        is_member: true,
        can_send_messages: false,
        can_send_audios: false,
        can_send_documents: false,
        can_send_photos: false,
        can_send_videos: false,
        can_send_video_notes: false,
        can_send_voice_notes: false,
        can_send_polls: false,
        can_send_other_messages: false,
        can_add_web_page_previews: false,
        can_change_info: false,
        can_invite_users: false,
        can_pin_messages: false,
        can_manage_topics: false,
        until_date: 0,
      };
    case 'kicked':
      return { status, user, until_date: 0 };
    default:
      return { status, user };
  }
}

/** Bot API form values: numbers and booleans as text, arrays and objects as JSON. */
function fromForm(form: URLSearchParams): Record<string, unknown> {
  const params: Record<string, unknown> = {};
  for (const [key, value] of form) {
    if (/^-?\d+$/.test(value) && key !== 'text') params[key] = Number(value);
    else if (value === 'true' || value === 'false') params[key] = value === 'true';
    else if (/^[[{]/.test(value)) {
      try {
        params[key] = JSON.parse(value) as unknown;
      } catch {
        params[key] = value;
      }
    } else params[key] = value;
  }
  return params;
}

async function readBody(request: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const raw = Buffer.concat(chunks).toString('utf8');
  if (!raw) return {};
  const type = request.headers['content-type'] ?? '';
  if (type.startsWith('application/json')) return JSON.parse(raw) as Record<string, unknown>;
  if (type.startsWith('application/x-www-form-urlencoded')) return fromForm(new URLSearchParams(raw));
  throw new Error(`unsupported content type ${type}`);
}

/**
 * A fake Bot API for a test file: started in `beforeAll`, closed in `afterAll` (after the app, as
 * hooks registered earlier run later on the way out). Call it before `useTestApp({env})` and pass
 * its `env`, which holds TELEGRAM_BOT_TOKEN and TELEGRAM_API_ROOT once it has started.
 */
export function useFakeTelegram(options: { botUsername?: string } = {}): {
  env: Record<string, string>;
  readonly fake: FakeTelegram;
} {
  const env: Record<string, string> = {};
  let running: FakeTelegram | undefined;
  beforeAll(async () => {
    running = await startFakeTelegram(options);
    env.TELEGRAM_BOT_TOKEN = running.token;
    env.TELEGRAM_API_ROOT = running.apiRoot;
  });
  afterAll(async () => {
    await running?.close();
    running = undefined;
  });
  return {
    env,
    get fake() {
      if (!running) throw new Error('useFakeTelegram: the fake Bot API runs only inside tests and hooks');
      return running;
    },
  };
}
