import type { Readable } from 'node:stream';
import { LocalTimeFormatter, type Locale } from '@kontrol/contracts';
import type { FastifyBaseLogger } from 'fastify';
import { createXlsxSheet } from '../../lib/xlsx-stream.js';
import type { NotificationsQuery } from './notifications.repository.js';

/** Rows read per query: the export walks the list by id, so memory stays flat and no cursor is held. */
export const EXCEL_CHUNK_ROWS = 5_000;

const HEADERS: Record<Locale, string[]> = {
  ru: ['Время', 'Важность', 'Вид', 'Заголовок', 'Текст', 'Оборудование', 'Прочитано'],
  en: ['Time', 'Severity', 'Kind', 'Title', 'Text', 'Device', 'Read'],
};
const WIDTHS = [20, 12, 16, 40, 60, 30, 20];

/**
 * `GET /api/notifications/excel`: the filtered notifications as an .xlsx (lib/xlsx-stream.ts),
 * read from the database in chunks by id. Times are Excel dates holding the wall-clock time in
 * `timeZone`; headers and the sheet's name in the request's language.
 */
export function notificationsWorkbook(
  query: NotificationsQuery,
  options: { timeZone: string; locale: Locale; log: FastifyBaseLogger },
): Readable {
  const sheet = createXlsxSheet({
    sheetName: options.locale === 'ru' ? 'Уведомления' : 'Notifications',
    headers: HEADERS[options.locale],
    widths: WIDTHS,
  });
  const clock = new LocalTimeFormatter(options.timeZone);
  // An Excel date has no zone: the cell holds the local wall-clock time, built as if it were UTC.
  const wallClock = (iso: string | null) => {
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
      await sheet.addRows(
        rows.map((row) => [
          wallClock(row.created_at),
          row.severity,
          // Text exactly as stored: the sheet writes it as inline strings, never as formulas, and
          // marks text that starts like one to stay text (lib/xlsx-stream.ts).
          row.kind,
          row.title,
          row.body,
          row.device_name,
          wallClock(row.read_at),
        ]),
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
