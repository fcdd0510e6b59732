import {
  deviceTypeSchema,
  type DeviceType,
  type DeviceTypeSlug,
  type Locale,
  type TelemetryKind,
  DEVICE_LIST_MODULES,
} from '@kontrol/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { listDeviceTypes } from './device-types.repository.js';

type DeviceTypeRow = Awaited<ReturnType<typeof listDeviceTypes>>[number];

export function toDeviceType(row: DeviceTypeRow, locale: Locale): DeviceType {
  return {
    id: row.id,
    slug: row.slug as DeviceTypeSlug,
    name: locale === 'en' ? row.name_en : row.name_ru,
    telemetry: JSON.parse(row.telemetry) as TelemetryKind[],
    wash_interval_hours: row.wash_interval_hours,
    program_capacity: row.program_capacity,
  };
}

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
    handler: async (request) => {
      const rows = await listDeviceTypes(app.db);
      return { data: { data: rows.map((row) => toDeviceType(row, request.locale)) } };
    },
  });
}
