import { PassThrough, type Readable } from 'node:stream';
import { LocalTimeFormatter, type Locale } from '@kontrol/contracts';
import ExcelJS from 'exceljs';
import type { FastifyBaseLogger } from 'fastify';
import type { NotificationsQuery } from './notifications.repository.js';

/** Rows read per query: the export walks the list by id, so memory stays flat and no cursor is held. */
export const EXCEL_CHUNK_ROWS = 5_000;
const FORMULA_START = /^[=+\-@\t\r]/;
const BACKPRESSURE_BYTES = 4 * 1024 * 1024;

const HEADERS: Record<Locale, string[]> = {
  ru: ['Время', 'Важность', 'Вид', 'Заголовок', 'Текст', 'Оборудование', 'Прочитано'],
  en: ['Time', 'Severity', 'Kind', 'Title', 'Text', 'Device', 'Read'],
};

/** Text a spreadsheet must not run as a formula (a leading apostrophe, as in the CSV export). */
function safeText(value: string | null): string {
  if (!value) return '';
  return FORMULA_START.test(value) ? `'${value}` : value;
}

/**
 * `GET /api/notifications/excel`: the filtered notifications as an .xlsx file written by exceljs's
 * streaming writer (no shared strings, rows committed as they are written), read from the database
 * in chunks by id. Times are Excel dates in `timeZone` (the wall-clock time there).
 */
export function notificationsWorkbook(
  query: NotificationsQuery,
  options: { timeZone: string; locale: Locale; log: FastifyBaseLogger },
): Readable {
  const output = new PassThrough();
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
    stream: output,
    useStyles: true,
    useSharedStrings: false,
  });
  const sheet = workbook.addWorksheet(options.locale === 'ru' ? 'Уведомления' : 'Notifications');
  sheet.columns = HEADERS[options.locale].map((header, index) => ({
    header,
    width: [20, 12, 16, 40, 60, 30, 20][index],
    ...(index === 0 || index === 6 ? { style: { numFmt: 'yyyy-mm-dd hh:mm:ss' } } : {}),
  }));
  sheet.getRow(1).font = { bold: true };
  sheet.getRow(1).commit();
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
      for (const row of rows) {
        sheet
          .addRow([
            wallClock(row.created_at),
            row.severity,
            safeText(row.kind),
            safeText(row.title),
            safeText(row.body),
            safeText(row.device_name),
            wallClock(row.read_at),
          ])
          .commit();
      }
      if (rows.length < EXCEL_CHUNK_ROWS) break;
      afterId = rows[rows.length - 1]?.id;
      // Backpressure: wait while the client has not taken what was written (memory stays flat).
      while (output.writableLength > BACKPRESSURE_BYTES && !output.destroyed)
        await new Promise((resolve) => output.once('drain', resolve));
    }
    sheet.commit();
    await workbook.commit();
  }
  write().catch((error: unknown) => {
    options.log.error({ err: error }, 'notifications export failed');
    output.destroy(error instanceof Error ? error : new Error(String(error)));
  });
  return output;
}
