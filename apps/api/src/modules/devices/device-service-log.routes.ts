import {
  idParamSchema,
  idParamsSchema,
  serviceEntryBodySchema,
  serviceEntrySchema,
} from '@kontrol/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser } from '../../plugins/auth.js';
import { DEVICE_ID } from './devices.routes.js';
import { addServiceEntry, deleteServiceEntry, listDeviceServiceLog } from './device-service-log.service.js';

const tags = ['devices'];
const entryParams = idParamsSchema.extend({
  entryId: idParamSchema,
});

/** A device's service log: maintenance, repairs, replaced parts and inspections. */
export async function deviceServiceLogRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get(`/api/devices/${DEVICE_ID}/service_log`, {
    config: { access: 'devices' },
    schema: {
      tags,
      summary: "The device's service log, newest date first",
      params: idParamsSchema,
      response: { 200: z.object({ data: z.array(serviceEntrySchema) }) },
    },
    handler: async (request) => ({
      data: await listDeviceServiceLog(app.db, currentUser(request).organisationId, request.params.id),
    }),
  });

  app.post(`/api/devices/${DEVICE_ID}/service_log`, {
    config: { access: 'devices' },
    schema: {
      tags,
      summary: 'Add a service log entry; maintenance moves the next service date on by the interval',
      params: idParamsSchema,
      body: serviceEntryBodySchema,
      response: { 201: z.object({ data: serviceEntrySchema }) },
    },
    handler: async (request, reply) => {
      const user = currentUser(request);
      const entry = await addServiceEntry(
        app.db,
        user.organisationId,
        user.id,
        request.params.id,
        request.body,
      );
      return reply.code(201).send({ data: entry });
    },
  });

  app.delete(`/api/devices/${DEVICE_ID}/service_log/:entryId(^\\d+$)`, {
    config: { access: 'devices' },
    schema: { tags, summary: 'Delete a service log entry', params: entryParams },
    handler: async (request, reply) => {
      const { id, entryId } = request.params;
      await deleteServiceEntry(app.db, currentUser(request).organisationId, id, entryId);
      return reply.code(204).send();
    },
  });
}
