import { PassThrough, type Readable } from 'node:stream';
import { startsLikeFormula } from './csv.js';

/**
 * A one-sheet .xlsx written as a stream (docs/decisions.md, "Excel files are written by hand"):
 * the workbook's few fixed XML parts, and the sheet's rows as they come, into a zip that is
 * streamed to the client. Text goes inline (no shared-strings table to hold in memory), times are
 * Excel dates with a date format, the header row is bold. Memory stays flat: `addRows` waits
 * while the zip has not taken what was written.
 *
 * No cell is ever a formula: text is an inline string, kept exactly as given, and text that starts
 * like a formula (`=`, `+`, `-`, `@`, tab, CR) also gets a quote-prefixed style, so a spreadsheet
 * keeps it as text even when someone edits the cell (docs/security.md, "Exports").
 */

export type XlsxCell = string | number | Date | null;

const EXCEL_EPOCH_DAYS = 25_569; // 1970-01-01 in Excel's day numbers
const DAY_MS = 86_400_000;
// Text that XML 1.0 does not allow at all (control characters other than tab, line feed, return).
// eslint-disable-next-line no-control-regex
const INVALID_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;

/**
 * Text as XML character data. A carriage return is written as a reference: a bare one would be
 * read back as a line feed (XML's end-of-line handling), and the cell would not hold what was given.
 */
function escapeXml(text: string): string {
  return text
    .replace(INVALID_XML, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/\r/g, '&#13;');
}

/** A1-style column letters of a zero-based index. */
function columnName(index: number): string {
  let name = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26))
    name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  return name;
}

/**
 * Style indexes of styles.xml below: 0 plain, 1 date and time, 2 bold (the header), 3 and 4 the
 * same as 0 and 2 with `quotePrefix` (text that must stay text).
 */
const STYLE_DATE = 1;
const STYLE_BOLD = 2;
const STYLE_QUOTED = 3;
const STYLE_BOLD_QUOTED = 4;

function cellXml(value: XlsxCell, reference: string, style?: number): string {
  if (value === null || value === '') return '';
  const s = style === undefined ? '' : ` s="${style}"`;
  if (value instanceof Date) {
    const days = value.getTime() / DAY_MS + EXCEL_EPOCH_DAYS;
    return `<c r="${reference}" s="${STYLE_DATE}"><v>${days}</v></c>`;
  }
  if (typeof value === 'number')
    return Number.isFinite(value) ? `<c r="${reference}"${s}><v>${value}</v></c>` : '';
  const quoted = startsLikeFormula(value) ? (style === STYLE_BOLD ? STYLE_BOLD_QUOTED : STYLE_QUOTED) : style;
  const textStyle = quoted === undefined ? '' : ` s="${quoted}"`;
  return `<c r="${reference}" t="inlineStr"${textStyle}><is><t xml:space="preserve">${escapeXml(value)}</t></is></c>`;
}

const CONTENT_TYPES = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/><Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/></Types>`;
const ROOT_RELS = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>`;
const WORKBOOK_RELS = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/></Relationships>`;
const STYLES = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><numFmts count="1"><numFmt numFmtId="164" formatCode="yyyy-mm-dd hh:mm:ss"/></numFmts><fonts count="2"><font><sz val="11"/><name val="Calibri"/></font><font><b/><sz val="11"/><name val="Calibri"/></font></fonts><fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills><borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders><cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs><cellXfs count="5"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/><xf numFmtId="164" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/><xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0" quotePrefix="1"/><xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1" quotePrefix="1"/></cellXfs><cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles></styleSheet>`;

function workbookXml(sheetName: string) {
  return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="${escapeXml(sheetName.slice(0, 31))}" sheetId="1" r:id="rId1"/></sheets></workbook>`;
}

export interface XlsxSheet {
  /** The file's bytes, to send as the response. */
  readonly stream: Readable;
  /** Adds rows; resolves when the zip can take more. */
  addRows(rows: readonly XlsxCell[][]): Promise<void>;
  /** Ends the sheet and the file. */
  finish(): Promise<void>;
  /** Ends the file with an error (the client sees a broken download, not a truncated success). */
  fail(error: Error): void;
}

export async function createXlsxSheet(options: {
  sheetName: string;
  headers: string[];
  widths?: number[];
}): Promise<XlsxSheet> {
  // archiver (with its zip, tar and glob dependencies) is loaded by the first download, not by
  // every server start: most processes never write a file.
  const { ZipArchive } = await import('archiver');
  const output = new PassThrough();
  const zip = new ZipArchive({ zlib: { level: 1 } });
  zip.on('error', (error) => output.destroy(error));
  zip.pipe(output);
  zip.append(CONTENT_TYPES, { name: '[Content_Types].xml' });
  zip.append(ROOT_RELS, { name: '_rels/.rels' });
  zip.append(workbookXml(options.sheetName), { name: 'xl/workbook.xml' });
  zip.append(WORKBOOK_RELS, { name: 'xl/_rels/workbook.xml.rels' });
  zip.append(STYLES, { name: 'xl/styles.xml' });
  const sheet = new PassThrough();
  zip.append(sheet, { name: 'xl/worksheets/sheet1.xml' });

  const columns = options.headers.map((_, index) => columnName(index));
  const cols = options.widths
    ? `<cols>${options.widths.map((width, index) => `<col min="${index + 1}" max="${index + 1}" width="${width}" customWidth="1"/>`).join('')}</cols>`
    : '';
  let rowNumber = 1;
  sheet.write(
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">${cols}<sheetData>` +
      `<row r="1">${options.headers.map((header, index) => cellXml(header, `${columns[index]}1`, STYLE_BOLD)).join('')}</row>`,
  );

  return {
    stream: output,
    async addRows(rows) {
      let xml = '';
      for (const row of rows) {
        rowNumber += 1;
        xml += `<row r="${rowNumber}">`;
        for (let index = 0; index < row.length; index += 1)
          xml += cellXml(row[index] ?? null, `${columns[index] ?? columnName(index)}${rowNumber}`);
        xml += '</row>';
      }
      if (!sheet.write(xml)) await new Promise((resolve) => sheet.once('drain', resolve));
      // The zip's own output waits for the client the same way.
      while (output.writableLength > 4 * 1024 * 1024 && !output.destroyed)
        await new Promise((resolve) => output.once('drain', resolve));
    },
    async finish() {
      sheet.end('</sheetData></worksheet>');
      await zip.finalize();
    },
    fail(error) {
      // The error goes to the download alone: the inner sheet has no listener, and an error left
      // on it would be uncaught and end the process.
      sheet.destroy();
      zip.abort();
      output.destroy(error);
    },
  };
}
