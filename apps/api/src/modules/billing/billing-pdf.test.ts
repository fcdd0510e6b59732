import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PDFParse } from 'pdf-parse';
import { describe, expect, it } from 'vitest';
import { pdfTextAndPages } from '../../test/pdf-text.js';
import type { ActPdfInput, DocumentLine, DocumentParty, InvoicePdfInput } from './billing-pdf.js';
import { renderActPdf, renderInvoicePdf } from './billing-pdf.js';

const seller: DocumentParty = {
  legal_name: 'ООО «Контроль»',
  inn: '7707083893',
  kpp: '773601001',
  ogrn: '1027700132195',
  legal_address: '117312, г. Москва, ул. Вавилова, д. 19, офис 405',
  bank_name: 'ПАО Сбербанк, г. Москва',
  bik: '044525225',
  correspondent_account: '30101810400000000225',
  settlement_account: '40702810938000000000',
  director: 'Соколов Андрей Викторович',
  accountant: 'Морозова Елена Павловна',
};

const buyer: DocumentParty = {
  legal_name: 'ООО «Ресторанная группа «Северная кухня»»',
  inn: '7801123455',
  kpp: '780101001',
  ogrn: '1027800000018',
  legal_address: '199034, г. Санкт-Петербург, Университетская наб., д. 7-9, лит. А, пом. 12-Н',
  bank_name: 'Северо-Западный банк ПАО Сбербанк',
  bik: '044030653',
  correspondent_account: '30101810500000000653',
  settlement_account: '40702810755000012345',
  director: 'Лебедева Ольга Игоревна',
  accountant: null,
};

const lines: DocumentLine[] = [
  {
    title: 'Подписка Kontrol «Профессиональный», 12 устройств, ноябрь 2026',
    quantity: 12,
    unit: 'шт',
    price_kopecks: 100_000,
    amount_kopecks: 1_200_000,
  },
  {
    title: 'Подключение и настройка телеметрии пароконвектоматов',
    quantity: 1,
    unit: 'усл.',
    price_kopecks: 350_000,
    amount_kopecks: 350_000,
  },
];

const invoice: InvoicePdfInput = {
  number: '2026-17',
  date: '2026-11-25',
  seller,
  buyer,
  lines,
  total_kopecks: 1_550_000,
  vat_percent: 22,
  vat_kopecks: 279_508,
  total_in_words: 'Пятнадцать тысяч пятьсот рублей 00 копеек',
  payment_purpose: 'Оплата по счёту № 2026-17 от 25.11.2026 за услуги Kontrol. В т.ч. НДС 22%',
};

const act: ActPdfInput = {
  number: '2026-17',
  date: '2026-11-30',
  period_label: 'ноябрь 2026',
  seller,
  buyer,
  lines,
  total_kopecks: 1_550_000,
  vat_percent: 22,
  vat_kopecks: 279_508,
  total_in_words: 'Пятнадцать тысяч пятьсот рублей 00 копеек',
};

const pdfText = pdfTextAndPages;

// Set BILLING_PDF_OUT=/tmp to keep the rendered samples for a look.
async function keep(name: string, pdf: Buffer): Promise<void> {
  const dir = process.env.BILLING_PDF_OUT;
  if (!dir) return;
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, name), pdf);
}

describe('billing PDFs', () => {
  it('renders an invoice whose text reads back as it was put in', async () => {
    const pdf = await renderInvoicePdf(invoice);
    await keep('invoice.pdf', pdf);
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');

    const { text, pages } = await pdfText(pdf);
    expect(pages).toBe(1);
    for (const expected of [
      'Счёт на оплату № 2026-17 от 25 ноября 2026 г.',
      'ООО «Контроль»',
      'ИНН 7707083893',
      'КПП 773601001',
      'ООО «Ресторанная группа «Северная кухня»»',
      'ИНН 7801123455',
      'ПАО Сбербанк, г. Москва',
      '044525225',
      '30101810400000000225',
      '40702810938000000000',
      'Товары (работы, услуги)',
      'Подписка Kontrol «Профессиональный», 12 устройств, ноябрь 2026',
      '1 000,00',
      '12 000,00',
      '3 500,00',
      'Итого: 15 500,00',
      'В том числе НДС 22%: 2 795,08',
      'Всего к оплате: 15 500,00',
      'Всего наименований 2, на сумму 15 500,00 руб.',
      'Пятнадцать тысяч пятьсот рублей 00 копеек',
      'Оплата по счёту № 2026-17 от 25.11.2026 за услуги Kontrol. В т.ч. НДС 22%',
      'Руководитель',
      'Соколов Андрей Викторович',
      'Бухгалтер',
      'Морозова Елена Павловна',
    ]) {
      expect(text).toContain(expected);
    }
  });

  it('renders an act with both parties, the period, the totals and both signatures', async () => {
    const pdf = await renderActPdf(act);
    await keep('act.pdf', pdf);
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');

    const { text, pages } = await pdfText(pdf);
    expect(pages).toBe(1);
    for (const expected of [
      'Акт об оказании услуг № 2026-17 от 30 ноября 2026 г.',
      'Исполнитель:',
      'ООО «Контроль»',
      'ИНН 7707083893',
      'Заказчик:',
      'ООО «Ресторанная группа «Северная кухня»»',
      'ИНН 7801123455',
      'ноябрь 2026',
      'Итого: 15 500,00',
      'В том числе НДС 22%: 2 795,08',
      'Всего оказано услуг 2, на сумму 15 500,00 руб.',
      'Пятнадцать тысяч пятьсот рублей 00 копеек',
      'Вышеперечисленные услуги выполнены полностью и в срок. ' +
        'Заказчик претензий по объёму, качеству и срокам оказания услуг не имеет.',
      'ИСПОЛНИТЕЛЬ',
      'ЗАКАЗЧИК',
      'Соколов Андрей Викторович',
      'Лебедева Ольга Игоревна',
    ]) {
      expect(text).toContain(expected);
    }
  });

  it('writes the document date as the creation date, so the same input gives the same bytes', async () => {
    const [first, second] = await Promise.all([renderInvoicePdf(invoice), renderInvoicePdf(invoice)]);
    expect(first.equals(second)).toBe(true);

    const parser = new PDFParse({ data: new Uint8Array(first) });
    try {
      const { info } = (await parser.getInfo()) as { info?: Record<string, unknown> };
      expect(info?.Title).toBe('Счёт на оплату № 2026-17 от 25 ноября 2026 г.');
      expect(info?.Author).toBe('Kontrol');
      expect(info?.CreationDate).toMatch(/^D:20261125000000Z/);
    } finally {
      await parser.destroy();
    }
  });

  it('flows 60 lines over more than one page and keeps every one of them', async () => {
    const many = Array.from({ length: 60 }, (_, i): DocumentLine => {
      const n = String(i + 1).padStart(3, '0');
      return {
        title: `Сервисное обслуживание пароконвектомата, серийный номер RC-${n}`,
        quantity: 1,
        unit: 'усл.',
        price_kopecks: 250_000,
        amount_kopecks: 250_000,
      };
    });
    const pdf = await renderInvoicePdf({
      ...invoice,
      lines: many,
      total_kopecks: 15_000_000,
      vat_kopecks: 2_704_918,
      total_in_words: 'Сто пятьдесят тысяч рублей 00 копеек',
    });
    await keep('invoice-60.pdf', pdf);

    const { text, pages } = await pdfText(pdf);
    expect(pages).toBeGreaterThan(1);
    for (const line of many) expect(text).toContain(line.title);
    expect(text).toContain('Всего наименований 60, на сумму 150 000,00 руб.');
    expect(text).toContain('Сто пятьдесят тысяч рублей 00 копеек');
  });

  it('wraps quoted names, long addresses and long words without throwing', async () => {
    const longAddress =
      '630099, Новосибирская область, г. Новосибирск, Центральный район, ул. Красный проспект, ' +
      'д. 101, корп. 2, строение 3, этаж 14, помещение 1408, комнаты 1-12, бизнес-центр «Сибирь», ' +
      'вход со стороны двора через арку, домофон 1408';
    const odd: DocumentParty = {
      ...buyer,
      legal_name:
        'Общество с ограниченной ответственностью «Сеть ресторанов „Сибирские пельмени“ и партнёры» ' +
        '(ООО "СРСП и П")',
      legal_address: longAddress,
      kpp: null,
      bank_name: 'Филиал «Центральный» Публичного акционерного общества «Банк ВТБ» в г. Новосибирске',
      director: 'Константинопольский-Вознесенский Александр Александрович',
    };
    const pdf = await renderInvoicePdf({
      ...invoice,
      seller: { ...seller, legal_address: longAddress, bank_name: odd.bank_name },
      buyer: odd,
      lines: [
        { ...lines[0]!, title: 'Очень'.repeat(40) },
        { ...lines[1]!, title: `Услуга «по договору» № 5/2026-К от 01.01.2026, ${longAddress}` },
      ],
    });
    await keep('invoice-odd.pdf', pdf);
    const { text } = await pdfText(pdf);
    expect(text).toContain(odd.legal_name);
    expect(text).toContain(longAddress);
    expect(text).toContain('Соколов Андрей Викторович');

    const actPdf = await renderActPdf({ ...act, seller: odd, buyer: odd });
    await keep('act-odd.pdf', actPdf);
    const actText = (await pdfText(actPdf)).text;
    expect(actText).toContain(odd.legal_name);
    expect(actText).toContain(odd.bank_name);
    // pdfkit may break the line after the hyphen; the extracted text then has a space there.
    expect(actText).toMatch(/Константинопольский- ?Вознесенский Александр Александрович/);
  });

  it('cuts a line title taller than a page instead of breaking the table', async () => {
    const huge = Array.from({ length: 400 }, (_, i) => `работа ${i + 1}`).join(', ');
    const pdf = await renderInvoicePdf({ ...invoice, lines: [{ ...lines[0]!, title: huge }, lines[1]!] });
    await keep('invoice-huge.pdf', pdf);
    const { text, pages } = await pdfText(pdf);
    expect(pages).toBe(3); // the header, the cut row on a page of its own, then the rest
    expect(text).toContain('работа 1, работа 2');
    expect(text).not.toContain('работа 400');
    expect(text).toContain(lines[1]!.title);
  });

  it('rejects a malformed date', async () => {
    await expect(renderInvoicePdf({ ...invoice, date: '2026-02-30' })).rejects.toThrow(RangeError);
  });
});
