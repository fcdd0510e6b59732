import { Box, Stack, Title } from '@mantine/core';
import { DataTable, type DataTableColumn } from '../../../components/data-table';
import { FormFailure } from '../../../components/form-failure';
import { PageLoader } from '../../../components/page-loader';
import { toApiFailure } from '../../../lib/api-errors';
import { ListPagination } from './list-pagination';

/**
 * A titled section with one page of a billing list (documents, payments): a loader, the failure,
 * or the table ("No records found" when empty), and the pages below.
 */
export function PagedTableSection<Row extends { id: number }>({
  id,
  title,
  pagesLabel,
  columns,
  query,
  page,
  onPageChange,
}: {
  /** The heading's id, which names the section. */
  id: string;
  title: string;
  pagesLabel: string;
  columns: DataTableColumn<Row>[];
  query: {
    data: { data: Row[]; meta: { last_page: number } } | undefined;
    error: unknown;
    isPending: boolean;
    isFetching: boolean;
  };
  page: number;
  onPageChange: (page: number) => void;
}) {
  const { data, error, isPending, isFetching } = query;
  return (
    <Stack gap="sm" component="section" aria-labelledby={id}>
      <Title order={2} size="h3" id={id}>
        {title}
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
            label={title}
            maxHeight="none"
          />
        </Box>
      )}
      {data && (
        <ListPagination
          page={page}
          lastPage={data.meta.last_page}
          onChange={onPageChange}
          label={pagesLabel}
        />
      )}
    </Stack>
  );
}
