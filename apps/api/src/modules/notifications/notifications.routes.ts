import {
  isTimeZone,
  notificationsPageSchema,
  notificationsQuerySchema,
  notificationsReadBodySchema,
  notificationsReadResultSchema,
  notificationsUnreadSchema,
} from '@kontrol/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { attachment } from '../../lib/csv.js';
import { FieldValidationError } from '../../lib/http-errors.js';
import { currentUser } from '../../plugins/auth.js';
import { applyFilters, paginate } from '../../plugins/pagination.js';
import { findDeviceZones } from '../telemetry/telemetry.repository.js';
import { notificationsWorkbook } from './notifications.excel.js';
import { NOTIFICATION_FILTERS, userNotifications, type NotificationRow } from './notifications.repository.js';
import { markNotificationsRead, unreadNotifications } from './notifications.service.js';

const tags = ['notifications'];

/** The list shows the device's id; its name is for the Excel file. */
function toNotification(row: NotificationRow) {
  return {
    id: row.id,
    kind: row.kind,
    severity: row.severity,
    title: row.title,
    body: row.body,
    device_id: row.device_id,
    event_id: row.event_id,
    alert_id: row.alert_id,
    occurred_at: row.occurred_at,
    created_at: row.created_at,
    read_at: row.read_at,
  };
}

/**
 * docs/contract.md, "HTTP calls" `GET /notifications` (page, filters) and the download `/api/notifications/excel`: the
 * signed-in user's own notifications (any user; device events and complaints raise them), and
 * marking them read (docs/notifications.md).
 */
export async function notificationsRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get('/api/notifications', {
    config: { access: 'user' },
    schema: {
      tags,
      summary:
        "The user's notifications, newest first by when what they tell of happened (`occurred_at`), paged; filters: kind, severity, device_id, occurred_at, created_at, read_at",
      querystring: notificationsQuerySchema,
      response: { 200: notificationsPageSchema },
    },
    handler: async (request) => {
      const user = currentUser(request);
      const query = applyFilters(
        userNotifications(app.db, user.organisationId, user.id),
        request.query.filters,
        NOTIFICATION_FILTERS,
      )
        .orderBy('notifications.occurred_at', 'desc')
        .orderBy('notifications.id', 'desc');
      const page = await paginate(request, query, request.query);
      return { ...page, data: page.data.map(toNotification) };
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
      const user = currentUser(request);
      const timeZone = request.query.tz ?? 'UTC';
      if (!isTimeZone(timeZone)) throw new FieldValidationError({ tz: ['field.time_zone'] });
      const query = applyFilters(
        userNotifications(app.db, user.organisationId, user.id),
        request.query.filters,
        NOTIFICATION_FILTERS,
      );
      const day = new Date().toISOString().slice(0, 10);
      return reply
        .type('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
        .header('content-disposition', attachment(`notifications_${day}.xlsx`))
        .header('cache-control', 'no-store')
        .send(
          notificationsWorkbook(query, {
            timeZone,
            locale: request.locale,
            log: request.log,
            deviceZones: async (ids) =>
              new Map(
                (await findDeviceZones(app.db, user.organisationId, ids)).map((row) => [
                  row.id,
                  row.time_zone,
                ]),
              ),
          }),
        );
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
