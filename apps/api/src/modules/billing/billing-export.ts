import { translate, type LedgerEntry, type Locale, type MessageKey } from '@kontrol/contracts';
import { CSV_BOM, csvNumber, csvRow, csvText } from '../../lib/csv.js';

/**
 * `GET /api/users/balance_log/csv`: the ledger as a spreadsheet reads it: UTF-8 with BOM, amounts
 * in roubles with two decimals, the kind in the reader's language, and the last column marking
 * test money (a credit nobody paid). A ledger grows by one charge a day, so the whole file is
 * built at once.
 */
export function balanceLogCsv(entries: readonly LedgerEntry[], locale: Locale): string {
  const t = (key: MessageKey) => translate(locale, key);
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
  );
  const rows = entries.map((entry) =>
    csvRow([
      csvText(entry.created_at),
      csvText(t(`billing.kind.${entry.kind}`)),
      csvText(entry.description),
      csvNumber(entry.amount / 100),
      csvNumber(entry.balance_after / 100),
      csvText(entry.test_money ? t('billing.csv.yes') : ''),
    ]),
  );
  return CSV_BOM + header + rows.join('');
}
