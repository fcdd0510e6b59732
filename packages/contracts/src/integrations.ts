import { z } from 'zod';
import { idSchema } from './ids.js';

/**
 * Integrations (module `settings`; admins change them): for now the Telegram bot, which carries a
 * user's notifications to a chat. docs/integrations.md.
 */

export const INTEGRATION_KINDS = ['telegram'] as const;
export type IntegrationKind = (typeof INTEGRATION_KINDS)[number];

/**
 * - `pending`: waiting for `/start <token>` in the bot (the link expires after
 *   TELEGRAM_LINK_TTL_MINUTES);
 * - `active`: a chat is bound and receives notifications;
 * - `expired`: the link was not used in time (a new integration gives a new link);
 * - `blocked`: the chat blocked the bot or was deleted; nothing more is sent.
 */
export const INTEGRATION_STATUSES = ['pending', 'active', 'expired', 'blocked'] as const;
export type IntegrationStatus = (typeof INTEGRATION_STATUSES)[number];

export const TELEGRAM_LINK_TTL_MINUTES = 30;
export const INTEGRATION_NAME_MAX_LENGTH = 120;
/** The one-time link token: URL-safe, fits Telegram's 64-character `/start` parameter. */
export const TELEGRAM_LINK_TOKEN = /^[A-Za-z0-9_-]{16,64}$/;

export const integrationSchema = z.object({
  id: z.number().int(),
  kind: z.enum(INTEGRATION_KINDS),
  name: z.string(),
  status: z.enum(INTEGRATION_STATUSES),
  /** Whose notifications it carries (their settings decide which). */
  user: z.object({ id: z.number().int(), name: z.string() }),
  /** The bound chat, once active: its title or the person's name and @username. */
  chat: z.object({ title: z.string(), username: z.string().nullable() }).nullable(),
  link_expires_at: z.string().nullable(),
  bound_at: z.string().nullable(),
  last_delivery_at: z.string().nullable(),
  last_error: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Integration = z.infer<typeof integrationSchema>;

/** `POST /api/integrations`: a Telegram integration for `user_id` (default: the caller). */
export const integrationBodySchema = z.object({
  kind: z.enum(INTEGRATION_KINDS),
  name: z.string().trim().min(1).max(INTEGRATION_NAME_MAX_LENGTH),
  user_id: idSchema.optional(),
});
export type IntegrationBody = z.input<typeof integrationBodySchema>;

/**
 * The answer to `POST /api/integrations`: the integration and, once, its link. The token is kept
 * only as a hash: it is never shown again. The console opens
 * `/account/settings/integrations/telegram/{token}` to show the link and wait for the binding.
 */
export const integrationCreatedSchema = z.object({
  data: integrationSchema,
  link: z.object({ token: z.string(), url: z.string(), expires_at: z.string() }),
});

/** `GET /api/integrations/telegram/{token}`: the binding a link token started, for its waiting page. */
export const telegramBindingSchema = z.object({
  data: z.object({
    integration_id: z.number().int(),
    status: z.enum(INTEGRATION_STATUSES),
    url: z.string(),
    expires_at: z.string().nullable(),
    chat: integrationSchema.shape.chat,
  }),
});

/** `GET /api/integrations` also says whether the server has a bot at all (TELEGRAM_BOT_TOKEN). */
export const integrationsListSchema = z.object({
  data: z.array(integrationSchema),
  meta: z.object({ telegram: z.object({ configured: z.boolean(), bot_username: z.string().nullable() }) }),
});
