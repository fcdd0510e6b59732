import type { Readable } from 'node:stream';
import { translate, type Locale, type MessageKey } from '@kontrol/contracts';
import type { FastifyBaseLogger } from 'fastify';
import { notificationKindName, severityName, yesNo } from '../../lib/export-words.js';
import { createXlsxSheet } from '../../lib/xlsx-stream.js';
import { zoneClock, type ZoneClock } from '../../lib/zone-clock.js';
import type { NotificationsQuery } from './notifications.repository.js';

/** Rows read per query: the export walks the list by id, so memory stays flat and no cursor is held. */
export const EXCEL_CHUNK_ROWS = 5_000;

const HEADERS = [
  'export.time',
  'export.utc_offset',
  'export.severity',
  'export.kind',
  'export.title',
  'export.text',
  'export.device',
  'export.read',
  'export.read_at',
] as const satisfies readonly MessageKey[];
const WIDTHS = [20, 10, 16, 30, 40, 60, 30, 12, 20];

/** `UTC+03:00` (text, never read as a formula or a time) of a `YYYY-MM-DDTHH:MM:SS+03:00`. */
const offsetOf = (clock: ZoneClock, ts: number) => `UTC${clock.iso(ts).slice(19)}`;

/**
 * `GET /api/notifications/excel`: the filtered notifications as an .xlsx (lib/xlsx-stream.ts),
 * read from the database in chunks by id. Times are Excel dates holding the wall-clock time at
 * the device's address (`timeZone`, the reader's own, for a notification without a device), with
 * that zone's offset beside them; headers, severities, kinds, "read" and the sheet's name in the
 * request's language.
 */
export async function notificationsWorkbook(
  query: NotificationsQuery,
  options: {
    timeZone: string;
    locale: Locale;
    log: FastifyBaseLogger;
    /** The address time zones of these devices (the organisation's own). */
    deviceZones: (ids: number[]) => Promise<Map<number, string>>;
  },
): Promise<Readable> {
  const { locale } = options;
  const sheet = await createXlsxSheet({
    sheetName: translate(locale, 'export.notifications_sheet'),
    headers: HEADERS.map((key) => translate(locale, key)),
    widths: WIDTHS,
  });
  const readerClock = zoneClock(options.timeZone);
  const zones = new Map<number, string>();
  const clockOf = (deviceId: number | null) => {
    const zone = deviceId === null ? undefined : zones.get(deviceId);
    return zone ? zoneClock(zone) : readerClock;
  };
  // An Excel date has no zone: the cell holds the local wall-clock time, built as if it were UTC.
  const wallClock = (clock: ZoneClock, iso: string | null) => {
    if (!iso) return null;
    const ts = Date.parse(iso);
    return new Date(ts + clock.offset(ts));
  };

  async function write() {
    let afterId: number | undefined;
    for (;;) {
      let chunk = query.orderBy('notifications.id', 'desc').limit(EXCEL_CHUNK_ROWS);
      if (afterId !== undefined) chunk = chunk.where('notifications.id', '<', afterId);
      const rows = await chunk.execute();
      const unknown = [
        ...new Set(rows.flatMap((row) => (row.device_id === null ? [] : [row.device_id]))),
      ].filter((id) => !zones.has(id));
      if (unknown.length > 0)
        for (const [id, zone] of await options.deviceZones(unknown)) zones.set(id, zone);
      await sheet.addRows(
        rows.map((row) => {
          const clock = clockOf(row.device_id);
          return [
            wallClock(clock, row.occurred_at),
            offsetOf(clock, Date.parse(row.occurred_at)),
            severityName(locale, row.severity),
            notificationKindName(locale, row.kind),
            // Text exactly as stored: the sheet writes it as inline strings, never as formulas, and
            // marks text that starts like one to stay text (lib/xlsx-stream.ts).
            row.title,
            row.body,
            row.device_name,
            yesNo(locale, row.read_at !== null),
            wallClock(clock, row.read_at),
          ];
        }),
      );
      if (rows.length < EXCEL_CHUNK_ROWS) break;
      afterId = rows[rows.length - 1]?.id;
    }
    await sheet.finish();
  }
  write().catch((error: unknown) => {
    options.log.error({ err: error }, 'notifications export failed');
    sheet.fail(error instanceof Error ? error : new Error(String(error)));
  });
  return sheet.stream;
}
