import {
  DEVICE_VIEWING_MODULES,
  dashboardReportQuerySchema,
  dashboardReportSchema,
  deviceStatSchema,
  preferGraphQuerySchema,
  preferGraphSchema,
} from '@kontrol/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser } from '../../plugins/auth.js';
import { dashboardReport, deviceStat, preferGraph } from './dashboard.service.js';

/**
 * SPEC §7: `/devices/stat`, `/devices/reports/dashboard`, `/devices/info/prefer_graph` — the
 * dashboard's data (docs/dashboard.md), for holders of a module that shows devices.
 */
export async function dashboardRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tags = ['dashboard'];
  const statEnvelope = z.object({ data: deviceStatSchema });

  app.get('/api/devices/stat', {
    config: { access: DEVICE_VIEWING_MODULES },
    schema: { tags, summary: 'The devices with the dashboard counters', response: { 200: statEnvelope } },
    handler: async (request) => ({
      data: await deviceStat(app.db, currentUser(request).organisationId, undefined),
    }),
  });

  app.get('/api/devices/stat/:type', {
    config: { access: DEVICE_VIEWING_MODULES },
    schema: {
      tags,
      summary: 'The dashboard counters of one device type (its id or slug)',
      params: z.object({ type: z.string().min(1).max(64) }),
      response: { 200: statEnvelope },
    },
    handler: async (request) => ({
      data: await deviceStat(app.db, currentUser(request).organisationId, request.params.type),
    }),
  });

  app.get('/api/devices/info/prefer_graph', {
    config: { access: DEVICE_VIEWING_MODULES },
    schema: {
      tags,
      summary: 'Per hour of a day: devices that reported, worked and washed',
      querystring: preferGraphQuerySchema,
      response: { 200: z.object({ data: preferGraphSchema }) },
    },
    handler: async (request) => ({
      data: await preferGraph(app.db, currentUser(request).organisationId, request.query),
    }),
  });

  app.get('/api/devices/reports/dashboard', {
    config: { access: DEVICE_VIEWING_MODULES },
    schema: {
      tags,
      summary: "One device's day: the metric by the minute, its norm, events, washes and work",
      querystring: dashboardReportQuerySchema,
      response: { 200: z.object({ data: dashboardReportSchema }) },
    },
    handler: async (request) => ({
      data: await dashboardReport(app.db, currentUser(request).organisationId, request.query, request.locale),
    }),
  });
}
