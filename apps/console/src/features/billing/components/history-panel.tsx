import { LEDGER_KINDS, type LedgerEntry } from '@kontrol/contracts';
import { Badge, Button, Group, MultiSelect, SimpleGrid, Stack, Text } from '@mantine/core';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { DataTableColumn } from '../../../components/data-table';
import { PagedTable } from '../../../components/paged-table';
import { DateField } from '../../../components/date-fields';
import { formatDateTime, intlLocale } from '../../../lib/format';
import { useSearchParamsState, useSearchText } from '../../../lib/use-search-params-state';
import { toLedgerServerFilters, useBalanceLog } from '../api/get-balance-log';
import { useBillingLabels, useMoney } from '../billing-format';
import classes from '../billing.module.css';
import { HISTORY_PARAMS, historyFilters, parsePage } from '../history-filters';
import { ExportCsvButton } from './export-csv-button';

/**
 * The history tab: the ledger, newest first, a page at a time from the server (docs/contract.md, "Entities": page and
 * filters), filtered by kind of operation and by period, with the filters and the page in the
 * query string, test money marked as such; and the same filtered history as a CSV file.
 */
export function HistoryPanel() {
  const { t } = useTranslation();
  const labels = useBillingLabels();
  const money = useMoney();
  const [params, setParams] = useSearchParamsState(HISTORY_PARAMS);
  const page = parsePage(params.page);
  // `params` changes only when one of this tab's parameters does.
  const filters = useMemo(() => toLedgerServerFilters(historyFilters(params)), [params]);
  const kinds = useMemo(() => historyFilters(params).kinds, [params]);
  const query = useBalanceLog(page, filters);
  const { data } = query;
  // The date boxes keep their own text while a date is typed, and write it after a pause.
  const [fromText, setFromText] = useSearchText(params.from, (from) =>
    setParams({ from, page: '1' }, { replace: true }),
  );
  const [toText, setToText] = useSearchText(params.to, (to) =>
    setParams({ to, page: '1' }, { replace: true }),
  );

  const columns = useMemo<DataTableColumn<LedgerEntry>[]>(() => {
    return [
      {
        id: 'created_at',
        header: t('Date'),
        width: 'minmax(9rem, 1fr)',
        cell: (row) => formatDateTime(row.created_at),
      },
      {
        id: 'kind',
        header: t('Operation'),
        width: 'minmax(8rem, 0.9fr)',
        // A credit nobody paid (the sandbox provider's, the demo's) says so beside its kind.
        cell: (row) =>
          row.test_money ? (
            <Group gap={6} wrap="wrap">
              <span>{labels.ledgerKind[row.kind]}</span>
              <Badge color="orange" variant="dot" tt="none" data-test-money>
                {t('Test money')}
              </Badge>
            </Group>
          ) : (
            labels.ledgerKind[row.kind]
          ),
      },
      {
        id: 'description',
        header: t('Description'),
        width: 'minmax(14rem, 3fr)',
        cell: (row) => <span title={row.description}>{row.description}</span>,
      },
      {
        id: 'amount',
        header: t('Amount'),
        width: 'minmax(8rem, 1fr)',
        align: 'end',
        cell: (row) => (
          <span
            className={`${classes.amount} ${row.amount < 0 ? classes.debit : row.amount > 0 ? classes.credit : ''}`}
          >
            {money.signed(row.amount)}
          </span>
        ),
      },
      {
        id: 'balance_after',
        header: t('Balance after'),
        width: 'minmax(8rem, 1fr)',
        align: 'end',
        cell: (row) => (
          <span className={row.balance_after < 0 ? `${classes.amount} ${classes.debit}` : classes.amount}>
            {money.format(row.balance_after)}
          </span>
        ),
      },
    ];
  }, [t, labels, money]);

  const filtered = params.kind !== '' || params.from !== '' || params.to !== '';

  return (
    <Stack gap="md">
      <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="md">
        <MultiSelect
          label={t('Operations')}
          placeholder={kinds.length === 0 ? t('All') : undefined}
          data={LEDGER_KINDS.map((kind) => ({ value: kind, label: labels.ledgerKind[kind] }))}
          value={[...kinds]}
          onChange={(value) => setParams({ kind: value.join(','), page: '1' })}
          clearable
          clearButtonProps={{ 'aria-label': t('Clear') }}
        />
        <DateField label={t('From')} value={fromText} onChange={setFromText} clearable />
        <DateField label={t('To')} value={toText} onChange={setToText} clearable />
      </SimpleGrid>
      <Group justify="space-between" align="flex-start">
        <Group gap="md">
          {data && (
            <Text size="sm" c="dimmed" role="status">
              {t('Found: {{count}}', { count: data.meta.total.toLocaleString(intlLocale()) })}
            </Text>
          )}
          {filtered && (
            <Button
              variant="subtle"
              size="compact-sm"
              onClick={() => setParams({ kind: '', from: '', to: '', page: '1' })}
            >
              {t('Reset filters')}
            </Button>
          )}
        </Group>
        <ExportCsvButton filters={filters} />
      </Group>
      <PagedTable
        query={query}
        columns={columns}
        label={t('Balance history')}
        pagesLabel={t('Pages of the balance history')}
        page={page}
        onPageChange={(next) => setParams({ page: String(next) })}
      />
    </Stack>
  );
}
