import type { BillingDocument } from '@kontrol/contracts';
import { Anchor, Badge } from '@mantine/core';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { DataTableColumn } from '../../../components/data-table';
import { intlLocale } from '../../../lib/format';
import { useDocuments } from '../api/get-documents';
import {
  DOCUMENT_STATUS_COLOURS,
  formatDay,
  formatMonth,
  useBillingLabels,
  useMoney,
} from '../billing-format';
import classes from '../billing.module.css';
import { PagedTableSection } from './paged-table-section';

/**
 * The organisation's invoices and acts, newest first, a page at a time: kind, number, date (an
 * act also its month), amount, status and the PDF (a plain download link: same origin, the
 * session's cookie).
 */
export function DocumentsList() {
  const { t } = useTranslation();
  const labels = useBillingLabels();
  const money = useMoney();
  const [page, setPage] = useState(1);
  const query = useDocuments(page);

  const columns = useMemo<DataTableColumn<BillingDocument>[]>(() => {
    const locale = intlLocale();
    return [
      {
        id: 'kind',
        header: t('Document'),
        width: 'minmax(9rem, 1.2fr)',
        cell: (row) =>
          row.kind === 'act' && row.period
            ? `${labels.documentKind.act}, ${formatMonth(row.period, locale)}`
            : labels.documentKind[row.kind],
      },
      { id: 'number', header: t('Number'), width: 'minmax(6rem, 0.8fr)', cell: (row) => `№ ${row.number}` },
      {
        id: 'date',
        header: t('Date'),
        width: 'minmax(7rem, 1fr)',
        cell: (row) => formatDay(row.date),
      },
      {
        id: 'amount',
        header: t('Amount'),
        width: 'minmax(8rem, 1fr)',
        align: 'end',
        cell: (row) => <span className={classes.amount}>{money.format(row.amount)}</span>,
      },
      {
        id: 'status',
        header: t('Status'),
        width: 'minmax(7rem, 0.8fr)',
        cell: (row) => (
          <Badge color={DOCUMENT_STATUS_COLOURS[row.status]} variant="dot" tt="none">
            {labels.documentStatus[row.status]}
          </Badge>
        ),
      },
      {
        id: 'download',
        header: t('File'),
        width: 'minmax(6rem, 0.7fr)',
        cell: (row) => (
          <Anchor
            href={row.download_url}
            download
            size="sm"
            aria-label={t('Download {{document}} № {{number}} (PDF)', {
              document: labels.documentKind[row.kind],
              number: row.number,
            })}
          >
            {t('PDF')}
          </Anchor>
        ),
      },
    ];
  }, [t, labels, money]);

  return (
    <PagedTableSection
      id="billing-documents"
      title={t('Documents')}
      pagesLabel={t('Pages of the documents')}
      columns={columns}
      query={query}
      page={page}
      onPageChange={setPage}
    />
  );
}
