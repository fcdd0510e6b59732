import {
  dateSchema,
  lastOnlineAnswerSchema,
  lastOnlineQuerySchema,
  reportQuerySchema,
  telemetryAnswerSchema,
  telemetryCsvQuerySchema,
  telemetryQuerySchema,
  temperatureAnswerSchema,
  temperatureQuerySchema,
  washAnswerSchema,
  washQuerySchema,
  worktimeAnswerSchema,
  type WorktimeDay,
} from '@kontrol/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { attachment } from '../../lib/csv.js';
import { currentUser } from '../../plugins/auth.js';
import { telemetryCsv } from './telemetry.export.js';
import {
  lastOnlineIntervals,
  readTelemetry,
  temperatureReport,
  washReport,
  worktimeAnswerJson,
  worktimeReport,
} from './telemetry.service.js';

/** Dates of a report: both real calendar dates. */
const datedReportQuery = reportQuerySchema.extend({ start: dateSchema, finish: dateSchema });

/**
 * docs/contract.md, "Dashboard, reports and telemetry" (docs/telemetry.md, "Reading"): the telemetry page's charts and
 * the device reports. Charts need the `telemetry` module; the device reports, `devices`.
 */
export async function telemetryRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get('/api/telemetry/', {
    config: { access: 'telemetry' },
    schema: {
      tags: ['telemetry'],
      summary:
        'Series of devices over a period: raw samples (paged) or minute, hour or day rollups, columnar ' +
        '(`t` and one array per value); `resolution=auto` picks by the length of the period',
      querystring: telemetryQuerySchema,
      response: { 200: telemetryAnswerSchema },
    },
    handler: async (request) => readTelemetry(app.db, currentUser(request).organisationId, request.query),
  });

  app.get('/api/telemetry/csv', {
    config: { access: 'telemetry' },
    schema: {
      tags: ['telemetry'],
      summary:
        'The raw samples of the period, or its minute, hour or day rollups (`resolution`), as a CSV file ' +
        'for Excel in the request’s language (UTF-8 with BOM; `;` and decimal commas in Russian, `,` in ' +
        'English; times at each device’s address with their offset), streamed',
      querystring: telemetryCsvQuerySchema,
    },
    handler: async (request, reply) => {
      const { filename, stream } = await telemetryCsv(
        app.database,
        currentUser(request).organisationId,
        request.query,
        request.locale,
      );
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', attachment(filename))
        .header('cache-control', 'no-store')
        .send(stream);
    },
  });

  app.get('/api/devices/info/last_online', {
    config: { access: 'devices' },
    schema: {
      tags: ['devices'],
      summary: "A device's online and offline intervals over a period (at most 31 days)",
      querystring: lastOnlineQuerySchema,
      response: { 200: lastOnlineAnswerSchema },
    },
    handler: async (request) => ({
      data: await lastOnlineIntervals(app.db, currentUser(request).organisationId, request.query),
    }),
  });

  app.get('/api/devices/reports/worktime', {
    config: { access: 'devices' },
    schema: {
      tags: ['devices'],
      summary:
        'Per device and local day (the address time zone): first and last working minute, minutes worked',
      querystring: datedReportQuery,
      response: { 200: worktimeAnswerSchema },
    },
    // Written by hand rather than by fast-json-stringify (telemetry.service.ts, docs/decisions.md).
    serializerCompiler: () => (answer) => worktimeAnswerJson(answer as { data: WorktimeDay[] }),
    handler: async (request) => ({
      data: await worktimeReport(app.db, currentUser(request).organisationId, request.query),
    }),
  });

  // The temperature report is read from the equipment and from the telemetry page.
  app.get('/api/devices/reports/temp', {
    config: { access: ['devices', 'telemetry'] },
    schema: {
      tags: ['devices'],
      summary:
        'Per device and local day: lowest, mean and highest temperature; with detail=hours the hours and the time outside the type’s range',
      querystring: temperatureQuerySchema.extend({ start: dateSchema, finish: dateSchema }),
      response: { 200: temperatureAnswerSchema },
    },
    handler: async (request) => ({
      data: await temperatureReport(app.db, currentUser(request).organisationId, request.query),
    }),
  });

  app.get('/api/devices/reports/wash', {
    config: { access: 'devices' },
    schema: {
      tags: ['devices'],
      summary: "A device's wash cycles over a period, its last completed wash and whether washing is overdue",
      querystring: washQuerySchema,
      response: { 200: washAnswerSchema },
    },
    handler: async (request) => ({
      data: await washReport(app.db, currentUser(request).organisationId, request.query),
    }),
  });
}
