import { Readable } from 'node:stream';
import {
  MAX_EXPORT_DEVICES,
  MAX_TELEMETRY_RANGE_DAYS,
  isTimeZone,
  translate,
  type Locale,
  type MessageKey,
  type TelemetryCsvQuery,
} from '@kontrol/contracts';
import type { DatabaseHandle } from '@kontrol/db';
import { CSV_BOM, csvDialect, csvNumber, csvRow, csvText, type CsvDialect } from '../../lib/csv.js';
import { stateNames } from '../../lib/export-words.js';
import { FieldValidationError } from '@kontrol/server-kit';
import { zoneClock, type ZoneClock } from '../../lib/zone-clock.js';
import {
  exportSampleReader,
  findReportDevices,
  findRollups,
  type ExportSampleRow,
  type RollupRow,
} from './telemetry.repository.js';
import { dayStartsOf, pickResolution, sumIntoDays } from './telemetry.service.js';

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
const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;

/** Columns of a raw file, each with its unit in the header (export.* in the contracts' messages). */
const RAW_HEADER = [
  'export.device_id',
  'export.device',
  'export.time',
  'export.utc_offset',
  'export.current',
  'export.temperature',
  'export.door_open',
  'export.state',
  'export.program',
  'export.error_code',
  'export.core_temperature',
  'export.humidity',
] as const satisfies readonly MessageKey[];
/** Columns of a file of rollups: a row per device and minute, hour or local day. */
const ROLLUP_HEADER = [
  'export.device_id',
  'export.device',
  'export.time',
  'export.utc_offset',
  'export.samples',
  'export.current_mean',
  'export.current_min',
  'export.current_max',
  'export.temperature_mean',
  'export.temperature_min',
  'export.temperature_max',
  'export.working_share',
  'export.door_open_share',
] as const satisfies readonly MessageKey[];

/** What every line needs besides its row and clock: the reader's dialect and words. */
interface LineContext {
  sep: CsvDialect['separator'];
  decimal: CsvDialect['decimal'];
  states: readonly string[];
  yes: string;
  no: string;
}

/**
 * `YYYY-MM-DD HH:MM:SS` (which Excel reads as a date and time) and `UTC±HH:MM`, the wall-clock
 * time at the device's address and that zone's offset then, as two cells. The offset is text that
 * starts with a letter: a bare `+03:00` would be a formula, or a time of day, to a spreadsheet.
 */
function localCells(clock: ZoneClock, ts: number, sep: string): string {
  const iso = clock.iso(ts);
  return iso.slice(0, 10) + ' ' + iso.slice(11, 19) + sep + 'UTC' + iso.slice(19);
}

/** The CSV line of a sample (CRLF included), after its device's id and name. */
function csvLine(prefix: string, row: ExportSampleRow, clock: ZoneClock, c: LineContext): string {
  const doorOpen = row[3];
  const sep = c.sep;
  return (
    prefix +
    localCells(clock, row[0], sep) +
    sep +
    csvNumber(row[1], c.decimal) +
    sep +
    csvNumber(row[2], c.decimal) +
    sep +
    (doorOpen === null ? '' : doorOpen ? c.yes : c.no) +
    sep +
    (c.states[row[4]] ?? '') +
    sep +
    (row[5] === null ? '' : csvText(row[5])) +
    sep +
    (row[6] === null ? '' : csvText(row[6])) +
    sep +
    csvNumber(row[7], c.decimal) +
    sep +
    csvNumber(row[8], c.decimal) +
    '\r\n'
  );
}

const rounded = (value: number | null, places: number) =>
  value === null ? null : Math.round(value * 10 ** places) / 10 ** places;
const mean = (sum: number, count: number) => (count > 0 ? rounded(sum / count, 2) : null);
const percent = (count: number, samples: number) =>
  samples > 0 ? rounded((100 * count) / samples, 1) : null;

/** The CSV line of a rollup bucket that begins at `bucket`. */
function rollupLine(
  prefix: string,
  bucket: number,
  row: Omit<RollupRow, 'device_id' | 'bucket'>,
  clock: ZoneClock,
  c: LineContext,
): string {
  const cells = [
    row.samples,
    mean(row.current_sum, row.samples),
    row.current_min,
    row.current_max,
    mean(row.temperature_sum, row.temperature_samples),
    row.temperature_min,
    row.temperature_max,
    percent(row.working, row.samples),
    percent(row.door_open, row.samples),
  ].map((value) => csvNumber(value, c.decimal));
  return prefix + localCells(clock, bucket, c.sep) + c.sep + cells.join(c.sep) + '\r\n';
}

/**
 * `GET /api/telemetry/csv` (docs/telemetry.md, "Downloads"): the devices' raw samples over the
 * period, one row each, or the minute, hour or day rollups the screen shows, one row per device
 * and bucket; in the reader's language and Excel's dialect for it (`;` and decimal commas in
 * Russian), times at each device's address with its offset. Checked like the page's query first
 * (422 before any byte is sent); then streamed in chunks of {@link EXPORT_CHUNK_ROWS} read by key,
 * each query short, so other requests go on meanwhile. Raw rows come from the driver as arrays and
 * are written straight into buffers; the next chunk is read only when the client has taken all but
 * {@link STREAM_AHEAD_BYTES}, so memory stays the same whatever the size of the file.
 */
export async function telemetryCsv(
  database: DatabaseHandle,
  organisationId: number,
  query: TelemetryCsvQuery,
  locale: Locale,
) {
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
  const resolution = pickResolution(query.resolution, range);
  const dialect = csvDialect(locale);
  const context: LineContext = {
    sep: dialect.separator,
    decimal: dialect.decimal,
    states: stateNames(locale),
    yes: translate(locale, 'export.yes'),
    no: translate(locale, 'export.no'),
  };
  // Device by device (ordered by id), each a range of the primary key read in chunks (a keyset over
  // two columns would make SQLite rescan from the start of the range for every chunk).
  const prefixes = devices.map((device) => ({
    id: device.id,
    prefix: `${device.id}${context.sep}${csvText(device.name)}${context.sep}`,
    timeZone: device.time_zone,
    clock: zoneClock(device.time_zone),
  }));
  const fileClock = zoneClock(timeZone);
  const day = (ms: number) => fileClock.iso(ms).slice(0, 10);
  const kind = resolution === 'raw' ? '' : `_${resolution}`;
  const filename = `telemetry${kind}_${day(range.start)}_${day(range.finish - 1)}.csv`;
  const header = (resolution === 'raw' ? RAW_HEADER : ROLLUP_HEADER).map((key) =>
    csvText(translate(locale, key)),
  );
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

  async function* rawPieces() {
    for (const { id, prefix, clock } of prefixes) {
      let from = range.start;
      for (;;) {
        let lastTs = from;
        const count = await read(id, from, range.finish, EXPORT_CHUNK_ROWS, (row) => {
          write(csvLine(prefix, row, clock, context));
          lastTs = row[0];
        });
        yield* full.splice(0);
        if (count < EXPORT_CHUNK_ROWS) break;
        from = lastTs + 1; // times are whole milliseconds
      }
    }
  }

  /** Minute or hour rollups, a window of {@link EXPORT_CHUNK_ROWS} buckets per query. */
  async function* bucketPieces(table: 'telemetry_minute' | 'telemetry_hour', unit: number) {
    // A bucket that began before `start` still holds samples inside the range.
    const first = range.start - (range.start % unit);
    for (const { id, prefix, clock } of prefixes) {
      for (let from = first; from < range.finish; from += EXPORT_CHUNK_ROWS * unit) {
        const window = { start: from, finish: Math.min(from + EXPORT_CHUNK_ROWS * unit, range.finish) };
        for (const row of await findRollups(database.db, table, [id], window))
          write(rollupLine(prefix, Number(row.bucket), row, clock, context));
        yield* full.splice(0);
      }
    }
  }

  /** The hours summed into each device's local days at its address (at most 400 days × 24 rows). */
  async function* dayPieces() {
    const hours = { start: range.start - (range.start % HOUR_MS), finish: range.finish };
    for (const { id, prefix, clock, timeZone: zone } of prefixes) {
      const rows = await findRollups(database.db, 'telemetry_hour', [id], hours);
      for (const [dayStart, sum] of sumIntoDays(rows, dayStartsOf(range, zone)))
        write(rollupLine(prefix, dayStart, sum, clock, context));
      yield* full.splice(0);
    }
  }

  async function* pieces() {
    write(CSV_BOM + csvRow(header, context.sep));
    if (resolution === 'raw') yield* rawPieces();
    else if (resolution === 'day') yield* dayPieces();
    else if (resolution === 'minute') yield* bucketPieces('telemetry_minute', MINUTE_MS);
    else yield* bucketPieces('telemetry_hour', HOUR_MS);
    if (used > 0) yield piece.subarray(0, used);
  }
  return {
    filename,
    stream: Readable.from(pieces(), { objectMode: false, highWaterMark: STREAM_AHEAD_BYTES }),
  };
}
