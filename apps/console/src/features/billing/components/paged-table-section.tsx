import { Stack, Title } from '@mantine/core';
import type { DataTableColumn } from '../../../components/data-table';
import { PagedTable, type PagedQuery } from '../../../components/paged-table';

/** A titled section with one page of a billing list (documents, payments). */
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
  query: PagedQuery<Row>;
  page: number;
  onPageChange: (page: number) => void;
}) {
  return (
    <Stack gap="sm" component="section" aria-labelledby={id}>
      <Title order={2} size="h3" id={id}>
        {title}
      </Title>
      <PagedTable
        query={query}
        columns={columns}
        label={title}
        pagesLabel={pagesLabel}
        page={page}
        onPageChange={onPageChange}
        maxHeight="none"
      />
    </Stack>
  );
}
