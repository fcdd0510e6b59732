/**
 * Russian billing documents as PDF: the invoice («Счёт на оплату») and the act of services rendered
 * («Акт об оказании услуг»), laid out as the usual 1C forms look, on A4 with pdfkit.
 *
 * Cyrillic needs an embedded TrueType font: DejaVu Sans (regular and bold) from the
 * `dejavu-fonts-ttf` package, read once per process and embedded as a subset.
 *
 * Determinism: the output is byte-identical for the same input. The document's CreationDate is
 * pinned to the document date (midnight UTC), pdfkit derives the file /ID from the info dictionary
 * (an MD5 of it, no clock or randomness), writes no ModDate, and the font subset and the zlib
 * streams depend only on the content. Nothing else in the file depends on the clock.
 *
 * Amounts are integer kopecks; they are shown as `1 200,00` with a no-break space (U+00A0) between
 * thousands so a number never wraps. Dates are `YYYY-MM-DD` and are shown as «25 ноября 2026 г.».
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type PDFKitDocument from 'pdfkit';

export interface DocumentParty {
  legal_name: string;
  inn: string;
  kpp: string | null;
  ogrn: string;
  legal_address: string;
  bank_name: string;
  bik: string;
  correspondent_account: string;
  settlement_account: string;
  director: string;
  accountant: string | null;
}

export interface DocumentLine {
  title: string;
  quantity: number;
  unit: string;
  price_kopecks: number;
  amount_kopecks: number;
}

export interface InvoicePdfInput {
  /** e.g. '2026-17', shown as «Счёт на оплату № 2026-17 от 25 ноября 2026 г.» */
  number: string;
  /** YYYY-MM-DD */
  date: string;
  seller: DocumentParty;
  buyer: DocumentParty;
  lines: DocumentLine[];
  total_kopecks: number;
  /** e.g. 22; the amounts include VAT: a line «В том числе НДС 22%: 216,39» */
  vat_percent: number;
  vat_kopecks: number;
  /** e.g. 'Одна тысяча двести рублей 00 копеек' */
  total_in_words: string;
  /** «Назначение платежа» */
  payment_purpose: string;
}

export interface ActPdfInput {
  number: string;
  /** YYYY-MM-DD */
  date: string;
  /** e.g. 'ноябрь 2026' */
  period_label: string;
  seller: DocumentParty;
  buyer: DocumentParty;
  lines: DocumentLine[];
  total_kopecks: number;
  vat_percent: number;
  vat_kopecks: number;
  total_in_words: string;
}

// ---------------------------------------------------------------------------------------------
// Fonts: read once per process; a failed read is not cached, so a later render may try again.

interface FontFiles {
  regular: Buffer;
  bold: Buffer;
}

let fontFiles: Promise<FontFiles> | undefined;

function loadFonts(): Promise<FontFiles> {
  if (!fontFiles) {
    const dir = join(dirname(createRequire(import.meta.url).resolve('dejavu-fonts-ttf/package.json')), 'ttf');
    fontFiles = Promise.all([
      readFile(join(dir, 'DejaVuSans.ttf')),
      readFile(join(dir, 'DejaVuSans-Bold.ttf')),
    ]).then(
      ([regular, bold]) => ({ regular, bold }),
      (error: unknown) => {
        fontFiles = undefined;
        throw error;
      },
    );
  }
  return fontFiles;
}

// ---------------------------------------------------------------------------------------------
// Formatting

const NBSP = '\u00a0';

const MONTHS_GENITIVE = [
  'января',
  'февраля',
  'марта',
  'апреля',
  'мая',
  'июня',
  'июля',
  'августа',
  'сентября',
  'октября',
  'ноября',
  'декабря',
];

function groupThousands(digits: string): string {
  return digits.replace(/\B(?=(\d{3})+(?!\d))/g, NBSP);
}

/** 120000 → '1 200,00' (no-break space between thousands, comma before kopecks). */
function formatKopecks(kopecks: number): string {
  if (!Number.isSafeInteger(kopecks)) throw new RangeError(`Amount must be integer kopecks: ${kopecks}`);
  const abs = Math.abs(kopecks);
  const roubles = groupThousands(String(Math.floor(abs / 100)));
  const rest = String(abs % 100).padStart(2, '0');
  return `${kopecks < 0 ? '-' : ''}${roubles},${rest}`;
}

/** 3 → '3', 1.5 → '1,5', 1000 → '1 000'. */
function formatQuantity(quantity: number): string {
  if (!Number.isFinite(quantity)) throw new RangeError(`Quantity must be a finite number: ${quantity}`);
  const [whole = '0', fraction] = Math.abs(quantity)
    .toFixed(3)
    .replace(/\.?0+$/, '')
    .split('.');
  return `${quantity < 0 ? '-' : ''}${groupThousands(whole)}${fraction ? `,${fraction}` : ''}`;
}

function formatPercent(percent: number): string {
  return String(percent).replace('.', ',');
}

interface DocumentDate {
  /** «25 ноября 2026 г.» */
  long: string;
  /** Midnight UTC of that day, for the PDF metadata. */
  instant: Date;
}

function parseDocumentDate(value: string): DocumentDate {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  const instant = match ? new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]))) : null;
  if (!match || !instant || instant.toISOString().slice(0, 10) !== value) {
    throw new RangeError(`Document date must be a valid YYYY-MM-DD: ${value}`);
  }
  const long = `${Number(match[3])} ${MONTHS_GENITIVE[Number(match[2]) - 1]} ${match[1]} г.`;
  return { long, instant };
}

/** «ООО «Контроль», ИНН 7707083893, КПП 773601001, 121099, г. Москва, …» */
function partyLine(party: DocumentParty, withBank: boolean): string {
  const parts = [party.legal_name, `ИНН ${party.inn}`];
  if (party.kpp) parts.push(`КПП ${party.kpp}`);
  parts.push(party.legal_address);
  if (withBank) {
    parts.push(
      `р/с ${party.settlement_account} в банке ${party.bank_name}`,
      `БИК ${party.bik}`,
      `к/с ${party.correspondent_account}`,
    );
  }
  return parts.join(', ');
}

// ---------------------------------------------------------------------------------------------
// Layout

const PAGE_WIDTH = 595.28; // A4 in points
const PAGE_HEIGHT = 841.89;
const MARGIN = 40;
const LEFT = MARGIN;
const RIGHT = PAGE_WIDTH - MARGIN;
const WIDTH = RIGHT - LEFT;
const BOTTOM = PAGE_HEIGHT - MARGIN;

const FONT_SIZE = 9;
const SMALL_SIZE = 7.5;
const TITLE_SIZE = 13;
const LINE_GAP = 1;
const PAD = 3; // padding inside table cells
const THIN = 0.5;
const THICK = 1.5;

const REGULAR = 'DejaVuSans';
const BOLD = 'DejaVuSans-Bold';

interface TextStyle {
  bold?: boolean;
  size?: number;
  align?: 'left' | 'center' | 'right';
  /** Cut the text here with an ellipsis instead of flowing it onto a new page. */
  maxHeight?: number;
}

type Doc = PDFKit.PDFDocument;

/** A cursor over the document: tracks y itself and breaks pages before a block would overflow. */
class Writer {
  y = MARGIN;

  constructor(readonly doc: Doc) {}

  private style({ bold = false, size = FONT_SIZE }: TextStyle): void {
    this.doc.font(bold ? BOLD : REGULAR).fontSize(size);
  }

  /** Height of `text` wrapped to `width`. */
  measure(text: string, width: number, style: TextStyle = {}): number {
    this.style(style);
    return this.doc.heightOfString(text, { width, lineGap: LINE_GAP });
  }

  lineHeight(style: TextStyle = {}): number {
    return this.measure('Ag', 1000, style);
  }

  /** Draws `text` wrapped to `width` at (x, y); never moves the cursor. */
  draw(text: string, x: number, y: number, width: number, style: TextStyle = {}): void {
    this.style(style);
    this.doc.text(text, x, y, {
      width,
      lineGap: LINE_GAP,
      align: style.align ?? 'left',
      ...(style.maxHeight === undefined ? {} : { height: style.maxHeight, ellipsis: true }),
    });
  }

  /** Starts a new page when fewer than `height` points are left on this one; true if it did. */
  ensure(height: number): boolean {
    if (this.y + height <= BOTTOM || this.y === MARGIN) return false;
    this.doc.addPage();
    this.y = MARGIN;
    return true;
  }

  /** A paragraph across the content width (or from `x` on); moves the cursor below it. */
  paragraph(text: string, style: TextStyle = {}, gapAfter = 4, x = LEFT): void {
    const height = this.measure(text, RIGHT - x, style);
    this.ensure(height);
    this.draw(text, x, this.y, RIGHT - x, style);
    this.y += height + gapAfter;
  }

  hline(x1: number, x2: number, y: number, width = THIN): void {
    this.doc.moveTo(x1, y).lineTo(x2, y).lineWidth(width).strokeColor('#000').stroke();
  }

  rect(x: number, y: number, w: number, h: number, width = THIN): void {
    this.doc.rect(x, y, w, h).lineWidth(width).strokeColor('#000').stroke();
  }

  rule(gapBefore = 2, gapAfter = 8): void {
    this.y += gapBefore;
    this.hline(LEFT, RIGHT, this.y, THICK);
    this.y += gapAfter;
  }
}

function createDocument(
  PDFDocument: typeof PDFKitDocument,
  fonts: FontFiles,
  title: string,
  date: Date,
): Doc {
  const doc = new PDFDocument({
    size: 'A4',
    margin: MARGIN,
    // No default font: pdfkit would otherwise embed an unused Helvetica.
    font: '',
    lang: 'ru-RU',
    displayTitle: true,
    info: {
      Title: title,
      Author: 'Kontrol',
      Creator: 'Kontrol',
      Producer: 'Kontrol (PDFKit)',
      CreationDate: date,
    },
  });
  doc.registerFont(REGULAR, fonts.regular);
  doc.registerFont(BOLD, fonts.bold);
  doc.font(REGULAR).fontSize(FONT_SIZE).fillColor('#000');
  return doc;
}

function collect(doc: Doc): Promise<Buffer> {
  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
}

/** Lays the document out (synchronously) and returns the finished file. */
async function render(title: string, date: Date, layout: (w: Writer) => void): Promise<Buffer> {
  // pdfkit (with fontkit and its tables, several MB of heap) is loaded by the first document, not
  // by every server start: most processes never render one.
  const [fonts, { default: PDFDocument }] = await Promise.all([loadFonts(), import('pdfkit')]);
  const doc = createDocument(PDFDocument, fonts, title, date);
  const done = collect(doc);
  try {
    layout(new Writer(doc));
  } catch (error) {
    doc.end(); // let the stream close; the layout error is what the caller gets
    void done.catch(() => undefined);
    throw error;
  }
  doc.end();
  return done;
}

/** The bank block at the top of an invoice: the seller's bank and accounts, as on a payment order. */
function bankBlock(w: Writer, seller: DocumentParty): void {
  const colLabel = 50;
  const colValue = 165;
  const colLeft = WIDTH - colLabel - colValue;
  const xLabel = LEFT + colLeft;
  const xValue = xLabel + colLabel;
  const cell = colLeft - 2 * PAD;
  const line = w.lineHeight() + 2 * PAD;
  const small = w.lineHeight({ size: SMALL_SIZE });

  const bankHeight = Math.max(2 * line, PAD + w.measure(seller.bank_name, cell) + 4 + small + PAD);
  const innHeight = line;
  const nameHeight = Math.max(2 * line, PAD + w.measure(seller.legal_name, cell) + 4 + small + PAD);
  w.ensure(bankHeight + innHeight + nameHeight);
  const y0 = w.y;
  const y1 = y0 + bankHeight; // between the bank rows and the recipient rows
  const y2 = y1 + innHeight;
  const y3 = y2 + nameHeight;

  // Bank of the recipient.
  w.draw(seller.bank_name, LEFT + PAD, y0 + PAD, cell);
  w.draw('Банк получателя', LEFT + PAD, y1 - PAD - small, cell, { size: SMALL_SIZE });
  w.draw('БИК', xLabel + PAD, y0 + PAD, colLabel - 2 * PAD);
  w.draw(seller.bik, xValue + PAD, y0 + PAD, colValue - 2 * PAD);
  w.draw('Сч. №', xLabel + PAD, y0 + line + PAD, colLabel - 2 * PAD);
  w.draw(seller.correspondent_account, xValue + PAD, y0 + line + PAD, colValue - 2 * PAD);

  // The recipient.
  const half = colLeft / 2;
  w.draw(`ИНН ${seller.inn}`, LEFT + PAD, y1 + PAD, half - 2 * PAD);
  w.draw(`КПП ${seller.kpp ?? ''}`.trim(), LEFT + half + PAD, y1 + PAD, half - 2 * PAD);
  w.draw(seller.legal_name, LEFT + PAD, y2 + PAD, cell);
  w.draw('Получатель', LEFT + PAD, y3 - PAD - small, cell, { size: SMALL_SIZE });
  w.draw('Сч. №', xLabel + PAD, y1 + PAD, colLabel - 2 * PAD);
  w.draw(seller.settlement_account, xValue + PAD, y1 + PAD, colValue - 2 * PAD);

  // Grid.
  w.rect(LEFT, y0, WIDTH, y3 - y0);
  w.hline(LEFT, RIGHT, y1);
  w.hline(LEFT, xLabel, y2);
  w.hline(xLabel, RIGHT, y0 + line);
  w.doc.moveTo(xLabel, y0).lineTo(xLabel, y3).moveTo(xValue, y0).lineTo(xValue, y3);
  w.doc
    .moveTo(LEFT + half, y1)
    .lineTo(LEFT + half, y2)
    .lineWidth(THIN)
    .stroke();
  w.y = y3 + 14;
}

function title(w: Writer, text: string): void {
  w.paragraph(text, { bold: true, size: TITLE_SIZE }, 2);
  w.rule(2, 8);
}

/** «Поставщик (Исполнитель): <requisites in bold>» with the label in its own column. */
function labelledRow(w: Writer, label: string, text: string): void {
  const labelWidth = 90;
  const textWidth = WIDTH - labelWidth;
  const height = Math.max(w.measure(label, labelWidth - 6), w.measure(text, textWidth, { bold: true }));
  w.ensure(height);
  w.draw(label, LEFT, w.y, labelWidth - 6);
  w.draw(text, LEFT + labelWidth, w.y, textWidth, { bold: true });
  w.y += height + 8;
}

interface Column {
  header: string;
  width: number;
  align: 'left' | 'center' | 'right';
}

function linesTable(w: Writer, lines: DocumentLine[], titleHeader: string): void {
  const fixed: Column[] = [
    { header: '№', width: 24, align: 'center' },
    { header: titleHeader, width: 0, align: 'left' },
    { header: 'Кол-во', width: 48, align: 'right' },
    { header: 'Ед.', width: 38, align: 'center' },
    { header: 'Цена', width: 72, align: 'right' },
    { header: 'Сумма', width: 80, align: 'right' },
  ];
  const flexible = WIDTH - fixed.reduce((sum, c) => sum + c.width, 0);
  const columns = fixed.map((c) => (c.width === 0 ? { ...c, width: flexible } : c));

  const headerCells = columns.map((c) => c.header);
  const cellHeight = (cells: string[], bold: boolean): number =>
    Math.max(...cells.map((text, i) => w.measure(text, columns[i]!.width - 2 * PAD, { bold })));
  const headerHeight = cellHeight(headerCells, true) + 2 * PAD;
  // A row taller than a page (an absurdly long title) is cut with an ellipsis rather than split.
  const maxText = BOTTOM - MARGIN - headerHeight - 2 * PAD;
  const rowHeight = (cells: string[]): number => Math.min(cellHeight(cells, false), maxText) + 2 * PAD;

  const drawRow = (cells: string[], height: number, header: boolean): void => {
    if (header) w.doc.rect(LEFT, w.y, WIDTH, height).fillColor('#ececec').fill().fillColor('#000');
    let x = LEFT;
    cells.forEach((text, i) => {
      const column = columns[i]!;
      w.draw(text, x + PAD, w.y + PAD, column.width - 2 * PAD, {
        bold: header,
        align: header ? 'center' : column.align,
        maxHeight: height - 2 * PAD,
      });
      w.rect(x, w.y, column.width, height);
      x += column.width;
    });
    w.y += height;
  };

  const rows = lines.map((line, index) => [
    String(index + 1),
    line.title,
    formatQuantity(line.quantity),
    line.unit,
    formatKopecks(line.price_kopecks),
    formatKopecks(line.amount_kopecks),
  ]);

  // The header stays with at least the first row.
  w.ensure(headerHeight + (rows[0] ? rowHeight(rows[0]) : 0));
  drawRow(headerCells, headerHeight, true);
  for (const cells of rows) {
    const height = rowHeight(cells);
    if (w.ensure(height)) drawRow(headerCells, headerHeight, true);
    drawRow(cells, height, false);
  }
  w.y += 6;
}

function totals(
  w: Writer,
  input: { total_kopecks: number; vat_percent: number; vat_kopecks: number },
  payable: boolean,
): void {
  const vat: [string, string] =
    input.vat_percent === 0 && input.vat_kopecks === 0
      ? ['Без налога (НДС):', '—']
      : [`В том числе НДС ${formatPercent(input.vat_percent)}%:`, formatKopecks(input.vat_kopecks)];
  const rows: Array<[string, string]> = [['Итого:', formatKopecks(input.total_kopecks)], vat];
  if (payable) rows.push(['Всего к оплате:', formatKopecks(input.total_kopecks)]);

  const valueWidth = 100;
  const labelWidth = 250;
  const line = w.lineHeight({ bold: true }) + 2;
  w.ensure(rows.length * line);
  for (const [label, value] of rows) {
    w.draw(label, RIGHT - valueWidth - labelWidth, w.y, labelWidth - 6, { bold: true, align: 'right' });
    w.draw(value, RIGHT - valueWidth, w.y, valueWidth - PAD, { bold: true, align: 'right' });
    w.y += line;
  }
  w.y += 6;
}

/** «Всего наименований N, на сумму X руб.» and the amount in words in bold, kept together. */
function amountSummary(w: Writer, lead: string, count: number, total: number, inWords: string): void {
  const summary = `${lead} ${count}, на сумму ${formatKopecks(total)} руб.`;
  w.ensure(w.measure(summary, WIDTH) + w.measure(inWords, WIDTH, { bold: true }) + 2);
  w.paragraph(summary, {}, 2);
  w.paragraph(inWords, { bold: true }, 8);
}

/** Signature lines one under the other: «Руководитель ____________ Соколов Андрей Викторович». */
function invoiceSignatures(w: Writer, seller: DocumentParty): void {
  const labelWidth = 90;
  const underline = 150;
  const nameX = LEFT + labelWidth + underline + 10;
  const nameWidth = RIGHT - nameX;
  const blocks: Array<[string, string]> = [
    ['Руководитель', seller.director],
    ['Бухгалтер', seller.accountant ?? seller.director],
  ];
  w.y += 18;
  for (const [label, name] of blocks) {
    const height =
      Math.max(w.lineHeight(), w.measure(label, labelWidth, { bold: true }), w.measure(name, nameWidth)) +
      2 +
      w.lineHeight({ size: SMALL_SIZE });
    w.ensure(height);
    const base = w.y + w.lineHeight(); // the underline sits under the first line of text
    w.draw(label, LEFT, w.y, labelWidth, { bold: true });
    w.hline(LEFT + labelWidth, LEFT + labelWidth + underline, base);
    w.draw('подпись', LEFT + labelWidth, base + 1, underline, { size: SMALL_SIZE, align: 'center' });
    w.draw(name, nameX, w.y, nameWidth);
    w.y += height + 10;
  }
}

/** Two blocks: ИСПОЛНИТЕЛЬ and ЗАКАЗЧИК, each with the company and its director's signature. */
function actSignatures(w: Writer, seller: DocumentParty, buyer: DocumentParty): void {
  const gap = 24;
  const half = (WIDTH - gap) / 2;
  const underline = 100;
  const blocks: Array<[string, DocumentParty]> = [
    ['ИСПОЛНИТЕЛЬ', seller],
    ['ЗАКАЗЧИК', buyer],
  ];
  const heights = blocks.map(
    ([label, party]) =>
      w.measure(label, half, { bold: true }) +
      4 +
      w.measure(party.legal_name, half) +
      18 +
      Math.max(w.lineHeight(), w.measure(party.director, half - underline - 6)) +
      2 +
      w.lineHeight({ size: SMALL_SIZE }),
  );
  const height = Math.max(...heights);
  w.ensure(height + 16);
  w.y += 16;
  blocks.forEach(([label, party], i) => {
    const x = LEFT + i * (half + gap);
    let y = w.y;
    w.draw(label, x, y, half, { bold: true });
    y += w.measure(label, half, { bold: true }) + 4;
    w.draw(party.legal_name, x, y, half);
    y += w.measure(party.legal_name, half) + 18;
    const base = y + w.lineHeight();
    w.hline(x, x + underline, base);
    w.draw('подпись', x, base + 1, underline, { size: SMALL_SIZE, align: 'center' });
    w.draw(party.director, x + underline + 6, y, half - underline - 6);
  });
  w.y += height;
}

// ---------------------------------------------------------------------------------------------
// Documents

export async function renderInvoicePdf(input: InvoicePdfInput): Promise<Buffer> {
  const date = parseDocumentDate(input.date);
  const heading = `Счёт на оплату № ${input.number} от ${date.long}`;
  return render(heading, date.instant, (w) => {
    bankBlock(w, input.seller);
    title(w, heading);
    labelledRow(w, 'Поставщик\n(Исполнитель):', partyLine(input.seller, false));
    labelledRow(w, 'Покупатель\n(Заказчик):', partyLine(input.buyer, false));
    w.y += 2;
    linesTable(w, input.lines, 'Товары (работы, услуги)');
    totals(w, input, true);
    amountSummary(w, 'Всего наименований', input.lines.length, input.total_kopecks, input.total_in_words);
    w.paragraph(`Назначение платежа: ${input.payment_purpose}`, {}, 4);
    w.rule(2, 0);
    invoiceSignatures(w, input.seller);
  });
}

export async function renderActPdf(input: ActPdfInput): Promise<Buffer> {
  const date = parseDocumentDate(input.date);
  const heading = `Акт об оказании услуг № ${input.number} от ${date.long}`;
  return render(heading, date.instant, (w) => {
    title(w, heading);
    labelledRow(w, 'Исполнитель:', partyLine(input.seller, true));
    labelledRow(w, 'Заказчик:', partyLine(input.buyer, true));
    labelledRow(w, 'Период:', input.period_label);
    w.y += 2;
    linesTable(w, input.lines, 'Наименование работ, услуг');
    totals(w, input, false);
    amountSummary(w, 'Всего оказано услуг', input.lines.length, input.total_kopecks, input.total_in_words);
    w.paragraph(
      'Вышеперечисленные услуги выполнены полностью и в срок. ' +
        'Заказчик претензий по объёму, качеству и срокам оказания услуг не имеет.',
      {},
      4,
    );
    w.rule(2, 0);
    actSignatures(w, input.seller, input.buyer);
  });
}
