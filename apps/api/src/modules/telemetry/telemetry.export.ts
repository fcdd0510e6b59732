import { Readable } from 'node:stream';
import {
  DEVICE_STATES,
  MAX_EXPORT_DEVICES,
  MAX_TELEMETRY_RANGE_DAYS,
  isTimeZone,
  type TelemetryQuery,
} from '@kontrol/contracts';
import type { DatabaseHandle } from '@kontrol/db';
import { CSV_BOM, csvNumber, csvRow, csvText } from '../../lib/csv.js';
import { FieldValidationError } from '../../lib/http-errors.js';
import { ZoneClock } from '../../lib/zone-clock.js';
import { exportSampleReader, findReportDevices, type ExportSampleRow } from './telemetry.repository.js';

const DAY_MS = 86_400_000;
/** Rows read per query: the export walks the range by key, so no cursor is held between chunks. */
export const EXPORT_CHUNK_ROWS = 2_000;
/**
 * Bytes per piece of the file handed to the stream. Lines are written into such a buffer as they
 * are made: no string of a whole chunk is built (it would outlive young-generation collections
 * and pile up in the old one until a full collection).
 */
const PIECE_BYTES = 16 * 1024;
/** Bytes of CSV the stream holds ahead of the client (compression, socket) before it reads again. */
const STREAM_AHEAD_BYTES = 64 * 1024;
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
const STATE_CELLS: readonly string[] = DEVICE_STATES;

/** The CSV line of a sample (CRLF included), after its device's `id,name,` prefix. */
function csvLine(prefix: string, row: ExportSampleRow, clock: ZoneClock): string {
  const doorOpen = row[3];
  return (
    prefix +
    clock.iso(row[0]) +
    ',' +
    csvNumber(row[1]) +
    ',' +
    csvNumber(row[2]) +
    ',' +
    (doorOpen === null ? '' : String(doorOpen)) +
    ',' +
    (STATE_CELLS[row[4]] ?? '') +
    ',' +
    (row[5] === null ? '' : csvText(row[5])) +
    ',' +
    (row[6] === null ? '' : csvText(row[6])) +
    ',' +
    csvNumber(row[7]) +
    ',' +
    csvNumber(row[8]) +
    '\r\n'
  );
}

/**
 * `GET /api/telemetry/csv` (docs/telemetry.md, "Downloads"): the raw samples of the devices over
 * the period, one row each, times in `tz` with their offset. Checked like the page's query first
 * (422 before any byte is sent); then streamed in chunks of {@link EXPORT_CHUNK_ROWS} read by key,
 * each query short, so other requests go on meanwhile. Rows come from the driver as arrays and are
 * written as one string per chunk; the next chunk is read only when the client has taken all but
 * {@link STREAM_AHEAD_BYTES}, so memory stays the same whatever the size of the file.
 */
export async function telemetryCsv(database: DatabaseHandle, organisationId: number, query: TelemetryQuery) {
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
  const devices = await findReportDevices(database.db, organisationId, query.devices);
  if (devices.length !== query.devices.length) throw new FieldValidationError({ devices: ['field.exists'] });
  // Device by device (ordered by id), each a range of the primary key read in chunks (a keyset over
  // two columns would make SQLite rescan from the start of the range for every chunk).
  const prefixes = devices.map((device) => ({
    id: device.id,
    prefix: `${device.id},${csvText(device.name)},`,
  }));
  const clock = new ZoneClock(timeZone);
  const day = (ms: number) => clock.iso(ms).slice(0, 10);
  const filename = `telemetry_${day(range.start)}_${day(range.finish - 1)}.csv`;
  const read = exportSampleReader(database);

  let piece = Buffer.allocUnsafe(PIECE_BYTES);
  let used = 0;
  const full: Buffer[] = [];
  const write = (line: string) => {
    // A UTF-16 unit is at most 3 bytes of UTF-8.
    if (used + line.length * 3 > piece.length) {
      full.push(piece.subarray(0, used));
      piece = Buffer.allocUnsafe(Math.max(PIECE_BYTES, line.length * 3));
      used = 0;
    }
    used += piece.write(line, used);
  };

  async function* pieces() {
    write(CSV_BOM + csvRow(HEADER));
    for (const { id, prefix } of prefixes) {
      let from = range.start;
      for (;;) {
        let lastTs = from;
        const count = await read(id, from, range.finish, EXPORT_CHUNK_ROWS, (row) => {
          write(csvLine(prefix, row, clock));
          lastTs = row[0];
        });
        yield* full.splice(0);
        if (count < EXPORT_CHUNK_ROWS) break;
        from = lastTs + 1; // times are whole milliseconds
      }
    }
    if (used > 0) yield piece.subarray(0, used);
  }
  return {
    filename,
    stream: Readable.from(pieces(), { objectMode: false, highWaterMark: STREAM_AHEAD_BYTES }),
  };
}
