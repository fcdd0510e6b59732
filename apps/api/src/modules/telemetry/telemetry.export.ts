import { Readable } from 'node:stream';
import {
  DEVICE_STATES,
  LocalTimeFormatter,
  MAX_EXPORT_DEVICES,
  MAX_TELEMETRY_RANGE_DAYS,
  isTimeZone,
  type TelemetryQuery,
} from '@kontrol/contracts';
import type { Database } from '@kontrol/db';
import type { Kysely } from 'kysely';
import { CSV_BOM, csvNumber, csvRow, csvText } from '../../lib/csv.js';
import { FieldValidationError } from '../../lib/http-errors.js';
import { findDeviceSamplesAfter, findReportDevices } from './telemetry.repository.js';

const DAY_MS = 86_400_000;
/** Rows read per query: the export walks the range by key, so memory stays flat and no cursor is held. */
export const EXPORT_CHUNK_ROWS = 10_000;
const HEADER = [
  'device_id',
  'device',
  'time',
  'current_a',
  'temperature_c',
  'door_open',
  'state',
  'program',
  'error_code',
  'core_temperature_c',
  'humidity_pct',
];

/**
 * `GET /api/telemetry/csv` (docs/telemetry.md, "Downloads"): the raw samples of the devices over
 * the period, one row each, times in `tz` with their offset. Checked like the page's query first
 * (422 before any byte is sent); then streamed in chunks of {@link EXPORT_CHUNK_ROWS} read by key,
 * each query short, so other requests go on meanwhile and memory does not grow with the file.
 */
export async function telemetryCsv(db: Kysely<Database>, organisationId: number, query: TelemetryQuery) {
  if (query.devices.length > MAX_EXPORT_DEVICES)
    throw new FieldValidationError({ devices: ['field.invalid'] });
  const range = { start: query.start, finish: query.finish };
  if (!(range.finish > range.start) || range.finish - range.start > MAX_TELEMETRY_RANGE_DAYS * DAY_MS)
    throw new FieldValidationError(
      { finish: ['field.range'] },
      { 'field.range': { days: MAX_TELEMETRY_RANGE_DAYS } },
    );
  const timeZone = query.tz ?? 'UTC';
  if (!isTimeZone(timeZone)) throw new FieldValidationError({ tz: ['field.time_zone'] });
  const devices = await findReportDevices(db, organisationId, query.devices);
  if (devices.length !== query.devices.length) throw new FieldValidationError({ devices: ['field.exists'] });
  const names = new Map(devices.map((device) => [device.id, csvText(device.name)]));
  const ids = devices.map((device) => device.id);
  const clock = new LocalTimeFormatter(timeZone);
  const day = (ms: number) => clock.format(ms).slice(0, 10);
  const filename = `telemetry_${day(range.start)}_${day(range.finish - 1)}.csv`;

  async function* chunks() {
    yield CSV_BOM + csvRow(HEADER);
    // Device by device, each a range of the primary key read in chunks (a keyset over two columns
    // would make SQLite rescan from the start of the range for every chunk).
    for (const deviceId of [...ids].sort((a, b) => a - b)) {
      const name = names.get(deviceId) ?? '';
      const prefix = `${deviceId},${name},`;
      let afterTs: number | undefined;
      for (;;) {
        const rows = await findDeviceSamplesAfter(db, deviceId, range, afterTs, EXPORT_CHUNK_ROWS);
        if (rows.length === 0) break;
        const lines: string[] = [];
        for (const row of rows) {
          lines.push(
            prefix +
              [
                clock.format(Number(row.ts)),
                csvNumber(row.current),
                csvNumber(row.temperature),
                row.door_open === null ? '' : String(row.door_open),
                DEVICE_STATES[row.state] ?? '',
                csvText(row.program),
                csvText(row.error_code),
                csvNumber(row.core_temperature),
                csvNumber(row.humidity),
              ].join(',') +
              '\r\n',
          );
        }
        yield lines.join('');
        if (rows.length < EXPORT_CHUNK_ROWS) break;
        afterTs = Number(rows[rows.length - 1]?.ts);
      }
    }
  }
  return { filename, stream: Readable.from(chunks()) };
}
