import type { DeviceType, DeviceTypeSlug, Locale, TelemetryKind } from '@kontrol/contracts';
import type { listDeviceTypes } from './device-types.repository.js';

type DeviceTypeRow = Awaited<ReturnType<typeof listDeviceTypes>>[number];

/** A device type as the API answers it, named in the language of the request. */
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
