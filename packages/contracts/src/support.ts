import { z } from 'zod';
import { idSchema } from './ids.js';
import { SUPPORT_MESSAGE_MAX_LENGTH } from './constants.js';
import { pageQuerySchema, pagedSchema } from './pagination.js';

/**
 * Messages: the organisation's conversation with the service provider's support (docs/contract.md, "HTTP calls"
 * `GET /api/messages/?page`, `POST /api/messages`). Support answers with the operator CLI
 * (`npm run kontrol -- support:reply`). docs/support-messages.md.
 */

// SUPPORT_MESSAGE_MAX_LENGTH and SUPPORT_UNREAD_POLL_MS are in constants.ts (no zod there).

export const supportMessageSchema = z.object({
  id: z.number().int(),
  text: z.string(),
  /** `organisation`: written by one of its users; `support`: by the provider's operator. */
  from: z.enum(['organisation', 'support']),
  author: z.object({ id: z.number().int().nullable(), name: z.string() }),
  created_at: z.string(),
  /** When the other side read it; null while unread. */
  read_at: z.string().nullable(),
});
export type SupportMessage = z.infer<typeof supportMessageSchema>;

/** Newest first; `meta.unread` counts support's messages the organisation has not read. */
export const supportMessagesQuerySchema = pageQuerySchema;
export const supportMessagesPageSchema = pagedSchema(supportMessageSchema).extend({
  meta: pagedSchema(supportMessageSchema).shape.meta.extend({ unread: z.number().int() }),
});

export const supportMessageBodySchema = z.object({
  text: z.string().trim().min(1).max(SUPPORT_MESSAGE_MAX_LENGTH),
});
export type SupportMessageBody = z.infer<typeof supportMessageBodySchema>;

/** `POST /api/messages/read`: support's messages up to `up_to_id` (default: all) count as read. */
export const supportMessagesReadBodySchema = z.object({
  up_to_id: idSchema.optional(),
});
/** `GET /api/messages/unread` → `{data: {unread}}`. */
export const supportUnreadSchema = z.object({ data: z.object({ unread: z.number().int() }) });
