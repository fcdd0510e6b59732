import {
  supportMessageBodySchema,
  supportMessageSchema,
  supportMessagesPageSchema,
  supportMessagesQuerySchema,
  supportMessagesReadBodySchema,
  supportUnreadSchema,
} from '@kontrol/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser } from '../../plugins/auth.js';
import {
  listSupportMessages,
  markSupportMessagesRead,
  postMessage,
  unreadCount,
} from './support-messages.service.js';

const tags = ['support messages'];

/** Messages one user may write to support per minute: a conversation, not a flood. */
export const SUPPORT_MESSAGES_PER_MINUTE = 20;

/**
 * docs/contract.md, "Support messages": the organisation's conversation with the service provider's support
 * (docs/support-messages.md). Every signed-in user of the organisation reads and writes it
 * (`access: 'user'`); support answers with the operator tool (`support:reply`).
 */
export async function supportMessagesRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get('/api/messages/', {
    config: { access: 'user' },
    schema: {
      tags,
      summary:
        "The organisation's conversation with support, newest first, paged; `meta.unread`: support's " +
        'messages not read yet',
      querystring: supportMessagesQuerySchema,
      response: { 200: supportMessagesPageSchema },
    },
    handler: async (request) => {
      const { organisationId } = currentUser(request);
      const { page, per_page: perPage } = request.query;
      return listSupportMessages(app.db, request, organisationId, { page, per_page: perPage });
    },
  });

  app.post('/api/messages', {
    config: {
      access: 'user',
      rateLimit: {
        max: SUPPORT_MESSAGES_PER_MINUTE,
        timeWindow: 60_000,
        // Per user, not per address: colleagues behind one office router write on their own count.
        keyGenerator: (request: FastifyRequest) =>
          request.user ? `user:${request.user.id}` : `ip:${request.ip}`,
      },
    },
    schema: {
      tags,
      summary: 'Write to support, signed with your name',
      body: supportMessageBodySchema,
      response: { 201: z.object({ data: supportMessageSchema }) },
    },
    handler: async (request, reply) => {
      const message = await postMessage(app.db, currentUser(request), request.body.text);
      return reply.code(201).send({ data: message });
    },
  });

  app.post('/api/messages/read', {
    config: { access: 'user' },
    schema: {
      tags,
      summary: "Mark support's messages read (up to `up_to_id`, else all); answers the unread count",
      body: supportMessagesReadBodySchema,
      response: { 200: supportUnreadSchema },
    },
    handler: async (request) => ({
      data: {
        unread: await markSupportMessagesRead(
          app.db,
          currentUser(request).organisationId,
          request.body.up_to_id,
        ),
      },
    }),
  });

  app.get('/api/messages/unread', {
    config: { access: 'user' },
    schema: {
      tags,
      summary: "How many of support's messages the organisation has not read",
      response: { 200: supportUnreadSchema },
    },
    handler: async (request) => ({
      data: { unread: await unreadCount(app.db, currentUser(request).organisationId) },
    }),
  });
}
