import { translate, type LedgerEntry, type Locale, type MessageKey } from '@kontrol/contracts';
import { CSV_BOM, csvDialect, csvNumber, csvRow, csvText } from '../../lib/csv.js';

/**
 * `GET /api/users/balance_log/csv`: the ledger as the reader's Excel opens it: UTF-8 with BOM,
 * `;` and decimal commas in Russian (`,` and points in English), amounts in roubles, the kind in
 * the reader's language, and the last column marking test money (a credit nobody paid). A ledger grows by one charge a day, so the whole file is
 * built at once.
 */
export function balanceLogCsv(entries: readonly LedgerEntry[], locale: Locale): string {
  const t = (key: MessageKey) => translate(locale, key);
  const { separator, decimal } = csvDialect(locale);
  const header = csvRow(
    (
      [
        'billing.csv.date',
        'billing.csv.kind',
        'billing.csv.description',
        'billing.csv.amount',
        'billing.csv.balance_after',
        'billing.csv.test_money',
      ] as const
    ).map((key) => csvText(t(key))),
    separator,
  );
  const rows = entries.map((entry) =>
    csvRow(
      [
        csvText(entry.created_at),
        csvText(t(`billing.kind.${entry.kind}`)),
        csvText(entry.description),
        csvNumber(entry.amount / 100, decimal),
        csvNumber(entry.balance_after / 100, decimal),
        csvText(entry.test_money ? t('billing.csv.yes') : ''),
      ],
      separator,
    ),
  );
  return CSV_BOM + header + rows.join('');
}
