import { DEVICE_LIST_MODULES, deviceTypeSchema } from '@kontrol/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { deviceTypes } from './device-types.service.js';

/** docs/contract.md, "Equipment": `GET /devices/types/`, read by the console from `data` inside `data`. */
export async function deviceTypesRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get('/api/devices/types/', {
    config: { access: DEVICE_LIST_MODULES },
    schema: {
      tags: ['devices'],
      summary: 'Device types, named in the language of the request, in display order',
      response: { 200: z.object({ data: z.object({ data: z.array(deviceTypeSchema) }) }) },
    },
    handler: async (request) => ({ data: { data: await deviceTypes(app.db, request.locale) } }),
  });
}
