import type { Payment } from '@kontrol/contracts';
import { Badge, Box, Stack, Title } from '@mantine/core';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTable, type DataTableColumn } from '../../../components/data-table';
import { FormFailure } from '../../../components/form-failure';
import { PageLoader } from '../../../components/page-loader';
import { toApiFailure } from '../../../lib/api-errors';
import { intlLocale } from '../../../lib/format';
import { usePayments } from '../api/get-payments';
import { PAYMENT_STATUS_COLOURS, useBillingLabels, useMoney } from '../billing-format';
import classes from '../billing.module.css';
import { ListPagination } from './list-pagination';

/** The organisation's recent online payments, newest first: when, how much, and how it ended. */
export function PaymentsList() {
  const { t } = useTranslation();
  const labels = useBillingLabels();
  const money = useMoney();
  const [page, setPage] = useState(1);
  const { data, error, isPending, isFetching } = usePayments(page);

  const columns = useMemo<DataTableColumn<Payment>[]>(() => {
    const time = new Intl.DateTimeFormat(intlLocale(), { dateStyle: 'short', timeStyle: 'short' });
    return [
      { id: 'number', header: t('Payment'), width: 'minmax(6rem, 0.7fr)', cell: (row) => `№ ${row.id}` },
      {
        id: 'created_at',
        header: t('Created'),
        width: 'minmax(9rem, 1fr)',
        cell: (row) => time.format(new Date(row.created_at)),
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
        cell: (row) => (row.completed_at ? time.format(new Date(row.completed_at)) : '—'),
      },
    ];
  }, [t, labels, money]);

  return (
    <Stack gap="sm" component="section" aria-labelledby="billing-payments">
      <Title order={2} size="h3" id="billing-payments">
        {t('Online payments')}
      </Title>
      {isPending ? (
        <PageLoader inline />
      ) : error || !data ? (
        <FormFailure failure={toApiFailure(error)} fields={[]} />
      ) : (
        <Box aria-busy={isFetching}>
          <DataTable
            data={data.data}
            columns={columns}
            getRowId={(row) => String(row.id)}
            label={t('Online payments')}
            maxHeight="none"
          />
        </Box>
      )}
      {data && (
        <ListPagination
          page={page}
          lastPage={data.meta.last_page}
          onChange={setPage}
          label={t('Pages of the online payments')}
        />
      )}
    </Stack>
  );
}
