import type { Payment } from '@kontrol/contracts';
import { Badge } from '@mantine/core';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { DataTableColumn } from '../../../components/data-table';
import { formatDateTime } from '../../../lib/format';
import { usePayments } from '../api/get-payments';
import { PAYMENT_STATUS_COLOURS, useBillingLabels, useMoney } from '../billing-format';
import classes from '../billing.module.css';
import { PagedTableSection } from './paged-table-section';

/** The organisation's recent online payments, newest first: when, how much, and how it ended. */
export function PaymentsList() {
  const { t } = useTranslation();
  const labels = useBillingLabels();
  const money = useMoney();
  const [page, setPage] = useState(1);
  const query = usePayments(page);

  const columns = useMemo<DataTableColumn<Payment>[]>(() => {
    return [
      { id: 'number', header: t('Payment'), width: 'minmax(6rem, 0.7fr)', cell: (row) => `№ ${row.id}` },
      {
        id: 'created_at',
        header: t('Created'),
        width: 'minmax(9rem, 1fr)',
        cell: (row) => formatDateTime(row.created_at),
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
        width: 'minmax(9rem, 1fr)',
        cell: (row) => (
          <Badge color={PAYMENT_STATUS_COLOURS[row.status]} variant="dot" tt="none">
            {labels.paymentStatus[row.status]}
          </Badge>
        ),
      },
      {
        id: 'completed_at',
        header: t('Completed'),
        width: 'minmax(9rem, 1fr)',
        cell: (row) => (row.completed_at ? formatDateTime(row.completed_at) : '—'),
      },
    ];
  }, [t, labels, money]);

  return (
    <PagedTableSection
      id="billing-payments"
      title={t('Online payments')}
      pagesLabel={t('Pages of the online payments')}
      columns={columns}
      query={query}
      page={page}
      onPageChange={setPage}
    />
  );
}
