import { Box, Pagination } from '@mantine/core';
import type { CSSProperties } from 'react';
import { useTranslation } from 'react-i18next';
import { isAbortError, toApiFailure } from '../lib/api-errors';
import { DataTable, type DataTableColumn } from './data-table';
import { FormFailure } from './form-failure';
import { PageLoader } from './page-loader';

/** What a paged list's TanStack query gives the table: one page and the number of pages. */
export interface PagedQuery<Row> {
  data: { data: Row[]; meta: { last_page: number } } | undefined;
  error: unknown;
  isPending: boolean;
  isFetching: boolean;
}

/**
 * One page of a server-paged list: a loader until the first page arrives, the failure (a request
 * the list cancelled itself is none), the table with its empty state ("No records found"), busy
 * while another page loads, and the labelled pages below. The page number is the caller's, kept in
 * the URL with the list's filters (`lib/use-search-params-state.ts`), so a link shows the same page.
 */
export function PagedTable<Row extends { id: number }>({
  query,
  columns,
  label,
  pagesLabel,
  page,
  onPageChange,
  maxHeight,
}: {
  query: PagedQuery<Row>;
  columns: DataTableColumn<Row>[];
  /** The table's accessible name. */
  label: string;
  /** What the pages are of, for assistive technology, e.g. "Pages of the documents". */
  pagesLabel: string;
  page: number;
  onPageChange: (page: number) => void;
  /** The table's scroll area's largest height (DataTable's default when left out). */
  maxHeight?: CSSProperties['maxHeight'];
}) {
  const { data, error, isPending, isFetching } = query;
  const failure = error && !isAbortError(error) ? toApiFailure(error) : null;
  return (
    <>
      <FormFailure failure={failure} fields={[]} />
      {isPending ? (
        <PageLoader inline />
      ) : (
        data && (
          <Box aria-busy={isFetching}>
            <DataTable
              data={data.data}
              columns={columns}
              getRowId={(row) => String(row.id)}
              label={label}
              {...(maxHeight === undefined ? {} : { maxHeight })}
            />
          </Box>
        )
      )}
      {data && (
        <ListPagination
          page={page}
          lastPage={data.meta.last_page}
          onChange={onPageChange}
          label={pagesLabel}
        />
      )}
    </>
  );
}

/** The pages of a server-paged list in a labelled navigation; nothing when there is one page. */
export function ListPagination({
  page,
  lastPage,
  onChange,
  label,
}: {
  page: number;
  lastPage: number;
  onChange: (page: number) => void;
  label: string;
}) {
  const { t } = useTranslation();
  if (lastPage <= 1) return null;
  return (
    <nav aria-label={label}>
      <Pagination
        total={lastPage}
        value={Math.min(page, lastPage)}
        onChange={onChange}
        getControlProps={(control) => ({
          'aria-label': control === 'previous' ? t('Previous page') : t('Next page'),
        })}
        getItemProps={(item) => ({
          'aria-label': t('Page {{page}}', { page: item }),
          'aria-current': item === page ? 'page' : undefined,
        })}
      />
    </nav>
  );
}
