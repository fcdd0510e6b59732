import {
  DEVICE_VIEWING_MODULES,
  dashboardReportQuerySchema,
  dashboardReportSchema,
  deviceStatSchema,
  preferGraphQuerySchema,
  preferGraphSchema,
} from '@kontrol/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser } from '../../plugins/auth.js';
import type { KeepOptions } from '../../lib/kept-answers.js';
import { devicesLivePart, LIVE_FIELDS_FRESH_MS } from '../devices/devices.routes.js';
import { dashboardReport, deviceStat, preferGraph, type StatSources } from './dashboard.service.js';

/**
 * A stat answer is kept while the fleet (devices, rooms, addresses), the device events and the
 * complaints have not changed, and for this long at most (what the gateway writes meanwhile: last
 * online, washes). The console lays the live updates over it and recomputes the counters
 * (docs/dashboard.md). The device lists' live fields' window, whose kept part of what the gateway
 * wrote the stat shares: building a chain's answer holds SQLite's event loop about 0.3 s, once per
 * window an organisation asks in.
 */
export const STAT_FRESH_MS = LIVE_FIELDS_FRESH_MS;
/**
 * The devices as the fleet holds them are read again at least this often, though their counter has
 * not moved: the wash intervals of device types, which move no organisation's counter.
 */
export const STAT_FLEET_FRESH_MS = 60_000;
/**
 * How long past its window a stat answer is still sent while the next one is built: a dashboard
 * opened after a quiet minute shows at once, and its live updates bring each device up to date as
 * it reports. Building a chain's answer holds the server for about a second.
 */
export const STAT_STALE_MS = 60_000;
const STAT_KEPT: KeepOptions = {
  from: ['fleet', 'events', 'complaints'],
  freshForMs: STAT_FRESH_MS,
  staleForMs: STAT_STALE_MS,
};

/**
 * docs/contract.md, "HTTP calls": `/devices/stat`, `/devices/reports/dashboard`, `/devices/info/prefer_graph` — the
 * dashboard's data (docs/dashboard.md), for holders of a module that shows devices.
 */
export async function dashboardRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tags = ['dashboard'];
  const statEnvelope = z.object({ data: deviceStatSchema });

  /**
   * The stat answer of the caller's organisation (of one type): kept while nothing it was built
   * from has changed, within STAT_FRESH_MS (`STAT_KEPT`). What it reads is kept apart as well: the
   * devices as the fleet holds them while the fleet is unchanged (within STAT_FLEET_FRESH_MS), and
   * what the gateway wrote (shared with the device list) and the last washes for STAT_FRESH_MS. A device event or a complaint builds the answer again
   * without reading either, and a new window reads only what the gateway wrote.
   */
  const sendStat = async (request: FastifyRequest, reply: FastifyReply, type: string | undefined) => {
    const user = currentUser(request);
    const sources: StatSources = {
      fleet: (typeId, read) =>
        app.keptAnswers.part(user, `stat-fleet:${typeId ?? 'all'}`, STAT_FLEET_FRESH_MS, read),
      live: (typeId, read) => app.keptAnswers.part(user, devicesLivePart(typeId), STAT_FRESH_MS, read),
      washes: (typeId, read) =>
        app.keptAnswers.part(user, `stat-washes:${typeId ?? 'all'}`, STAT_FRESH_MS, read),
    };
    return app.keptAnswers.send(request, reply, user, async () => ({
      data: await deviceStat(app.db, user.organisationId, type, Date.now(), sources),
    }));
  };

  app.get('/api/devices/stat', {
    config: { access: DEVICE_VIEWING_MODULES, kept: STAT_KEPT },
    schema: { tags, summary: 'The devices with the dashboard counters', response: { 200: statEnvelope } },
    handler: (request, reply) => sendStat(request, reply, undefined),
  });

  app.get('/api/devices/stat/:type', {
    config: { access: DEVICE_VIEWING_MODULES, kept: STAT_KEPT },
    schema: {
      tags,
      summary: 'The dashboard counters of one device type (its id or slug)',
      params: z.object({ type: z.string().min(1).max(64) }),
      response: { 200: statEnvelope },
    },
    handler: (request, reply) => sendStat(request, reply, request.params.type),
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
