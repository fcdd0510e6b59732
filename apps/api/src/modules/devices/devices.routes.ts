import {
  pagedSchema,
  DEVICE_LIST_MODULES,
  deviceBodySchema,
  deviceLimitsSchema,
  deviceSchema,
  devicesListQuerySchema,
  deviceWithCredentialSchema,
  idParamsSchema,
} from '@kontrol/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser } from '../../plugins/auth.js';
import type { KeepOptions } from '../../lib/kept-answers.js';
import {
  createDevice,
  deleteDevice,
  deviceLimits,
  getDevice,
  listDevices,
  listWholeFleet,
  rotateDeviceCredential,
  updateDevice,
} from './devices.service.js';

/**
 * Device lists carry what the gateway writes all the time (`last_online`, `work_start`), which
 * does not move the fleet version: a kept list is answered for at most this long, plus the time
 * the next one takes to build (`KeptAnswers.send`).
 */
export const LIVE_FIELDS_FRESH_MS = 15_000;
/**
 * The name of the kept part holding what the gateway wrote (`findDevicesLive`) of the devices of
 * one type or all: the whole device list and the dashboard's stat share it, so a console opening
 * reads it once per LIVE_FIELDS_FRESH_MS window for both.
 */
export const devicesLivePart = (typeId?: number) => `devices-live:${typeId ?? 'all'}`;
/**
 * How long past its window a kept list is still sent while the next one is built: a chain's whole
 * list (the console's reference data, 50 000 devices) takes about two seconds to build, and the
 * console lays the live updates over it as devices report.
 */
export const LIVE_FIELDS_STALE_MS = 60_000;
/**
 * The whole list's rows (the reference data) are read again at least this often, though the fleet's
 * counter has not moved; in between, only what the gateway wrote is (`listWholeFleet`).
 */
export const WHOLE_LIST_ROWS_FRESH_MS = 60_000;
const LIST_KEPT: KeepOptions = {
  from: ['fleet'],
  freshForMs: LIVE_FIELDS_FRESH_MS,
  staleForMs: LIVE_FIELDS_STALE_MS,
};

const tags = ['devices'];
/**
 * Ids are digits only, so that other paths under /api/devices/ (types, client/groups, and the
 * events, stat and reports of later issues) never reach these routes, whatever the router's order.
 */
export const DEVICE_ID = ':id(^\\d+$)';
const itemEnvelope = z.object({ data: deviceSchema });
const credentialEnvelope = z.object({ data: deviceWithCredentialSchema });
// The whole list first, strict, so a 10 000-device answer is checked once (a paged answer, with
// links and meta, fails it at once and matches the second).
const listResponse = z.union([z.object({ data: z.array(deviceSchema) }).strict(), pagedSchema(deviceSchema)]);

/** docs/contract.md, "Equipment": CRUD at /devices/ and /devices/{id}, plus the gateway credential. */
export async function devicesRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get('/api/devices/', {
    config: { access: DEVICE_LIST_MODULES, kept: LIST_KEPT },
    schema: {
      tags,
      summary:
        "The organisation's devices: all of them as {data} without `page` (reference data), else paged; " +
        'search, sort and filters apply in both modes',
      querystring: devicesListQuerySchema,
      response: { 200: listResponse },
    },
    handler: async (request, reply) => {
      const user = currentUser(request);
      const { page, per_page: perPage, search, filters, sort } = request.query;
      const whole = [page, perPage, search, filters, sort].every((param) => param === undefined);
      return app.keptAnswers.send(request, reply, user, () =>
        whole
          ? listWholeFleet(app.db, user.organisationId, {
              rows: (read) => app.keptAnswers.part(user, 'devices-rows', WHOLE_LIST_ROWS_FRESH_MS, read),
              live: (read) => app.keptAnswers.part(user, devicesLivePart(), LIVE_FIELDS_FRESH_MS, read),
            })
          : listDevices(app.db, request, user.organisationId, request.query),
      );
    },
  });

  app.post('/api/devices/', {
    config: { access: 'devices' },
    schema: {
      tags,
      summary: 'Create a device; a smart one comes back with its gateway credential, shown only this once',
      body: deviceBodySchema,
      response: { 201: credentialEnvelope },
    },
    handler: async (request, reply) => {
      const { organisationId } = currentUser(request);
      const device = await createDevice(app.db, app.gateway.accounts, organisationId, request.body);
      return reply.code(201).send({ data: device });
    },
  });

  app.get(`/api/devices/${DEVICE_ID}`, {
    config: { access: 'devices' },
    schema: { tags, summary: 'One device', params: idParamsSchema, response: { 200: itemEnvelope } },
    handler: async (request) => ({
      data: await getDevice(app.db, currentUser(request).organisationId, request.params.id),
    }),
  });

  app.put(`/api/devices/${DEVICE_ID}`, {
    config: { access: 'devices' },
    schema: {
      tags,
      summary: 'Replace a device; `credential` is set only when this change made it smart and it had none',
      params: idParamsSchema,
      body: deviceBodySchema,
      response: { 200: credentialEnvelope },
    },
    handler: async (request) => {
      const { organisationId } = currentUser(request);
      return {
        data: await updateDevice(
          app.db,
          app.gateway.accounts,
          organisationId,
          request.params.id,
          request.body,
        ),
      };
    },
  });

  app.delete(`/api/devices/${DEVICE_ID}`, {
    config: { access: 'devices' },
    schema: {
      tags,
      summary: 'Delete a device with its group memberships and service log',
      params: idParamsSchema,
    },
    handler: async (request, reply) => {
      await deleteDevice(
        app.db,
        app.gateway.accounts,
        currentUser(request).organisationId,
        request.params.id,
      );
      return reply.code(204).send();
    },
  });

  app.post(`/api/devices/${DEVICE_ID}/credential`, {
    config: { access: 'devices' },
    schema: {
      tags,
      summary: 'Issue a new gateway credential (shown only in this answer); the old one stops working',
      params: idParamsSchema,
      response: { 200: credentialEnvelope },
    },
    handler: async (request) => {
      const { organisationId } = currentUser(request);
      return {
        data: await rotateDeviceCredential(app.db, app.gateway.accounts, organisationId, request.params.id),
      };
    },
  });

  app.get(`/api/devices/${DEVICE_ID}/limits`, {
    config: { access: 'devices' },
    schema: {
      tags,
      summary:
        'What the device may send (connections, messages in flight, samples per second and per day) ' +
        'and what it sent and had refused on each of its last 7 UTC days, newest first',
      params: idParamsSchema,
      response: { 200: z.object({ data: deviceLimitsSchema }) },
    },
    handler: async (request) => {
      const { organisationId } = currentUser(request);
      return {
        data: await deviceLimits(app.db, app.gateway.limiter.settings, organisationId, request.params.id),
      };
    },
  });
}
