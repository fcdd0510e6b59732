import {
  notificationsPageSchema,
  notificationsQuerySchema,
  notificationsReadBodySchema,
  notificationsReadResultSchema,
  notificationsUnreadSchema,
} from '@kontrol/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { attachment } from '../../lib/csv.js';
import { currentUser } from '../../plugins/auth.js';
import {
  listNotifications,
  markNotificationsRead,
  notificationsDownload,
  unreadNotifications,
} from './notifications.service.js';

const tags = ['notifications'];

/**
 * docs/contract.md, "HTTP calls" `GET /notifications` (page, filters) and the download `/api/notifications/excel`: the
 * signed-in user's own notifications (any user; device events and complaints raise them), and
 * marking them read (docs/notifications.md).
 */
export async function notificationsRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get('/api/notifications', {
    config: { access: 'user', kept: { from: ['notifications'], perUser: true } },
    schema: {
      tags,
      summary:
        "The user's notifications, newest first by when what they tell of happened (`occurred_at`), paged; filters: kind, severity, device_id, occurred_at, created_at, read_at",
      querystring: notificationsQuerySchema,
      response: { 200: notificationsPageSchema },
    },
    handler: async (request, reply) => {
      const user = currentUser(request);
      return app.keptAnswers.send(request, reply, user, () =>
        listNotifications(app.db, request, user, request.query),
      );
    },
  });

  app.get('/api/notifications/excel', {
    config: { access: 'user' },
    schema: {
      tags,
      summary:
        'The filtered notifications as an Excel file (.xlsx) in the request’s language, times at the device’s address (else in `tz`) with their offset, streamed',
      querystring: notificationsQuerySchema,
    },
    handler: async (request, reply) => {
      const workbook = await notificationsDownload(app.db, currentUser(request), {
        filters: request.query.filters,
        timeZone: request.query.tz ?? 'UTC',
        locale: request.locale,
        log: request.log,
      });
      const day = new Date().toISOString().slice(0, 10);
      return reply
        .type('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
        .header('content-disposition', attachment(`notifications_${day}.xlsx`))
        .header('cache-control', 'no-store')
        .send(workbook);
    },
  });

  app.get('/api/notifications/unread', {
    config: { access: 'user' },
    schema: {
      tags,
      summary: "How many of the user's notifications are unread",
      response: { 200: notificationsUnreadSchema },
    },
    handler: async (request) => ({ data: await unreadNotifications(app.db, currentUser(request)) }),
  });

  app.post('/api/notifications/read', {
    config: { access: 'user' },
    schema: {
      tags,
      summary:
        "Marks the user's own notifications read: those in `ids`, or all without `ids`; answers how many changed and how many stay unread",
      body: notificationsReadBodySchema,
      response: { 200: notificationsReadResultSchema },
    },
    handler: async (request) => ({
      data: await markNotificationsRead(app.db, currentUser(request), request.body?.ids),
    }),
  });
}
