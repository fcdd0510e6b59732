import { MantineProvider } from '@mantine/core';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { DataTable, sortRows, type DataTableColumn, type DataTableSort } from './data-table';

interface Oven {
  id: number;
  name: string;
  trays: number | null;
}

const columns: DataTableColumn<Oven>[] = [
  {
    id: 'name',
    header: 'Название',
    cell: (o) => <a href={`/ovens/${o.id}`}>{o.name}</a>,
    sortValue: (o) => o.name,
  },
  { id: 'trays', header: 'Уровни', cell: (o) => o.trays ?? '—', sortValue: (o) => o.trays, align: 'end' },
  { id: 'note', header: 'Примечание', cell: () => '' },
];

function Ovens({ data, initial = null }: { data: Oven[]; initial?: DataTableSort | null }) {
  const [sort, setSort] = useState<DataTableSort | null>(initial);
  return (
    <MantineProvider>
      <DataTable
        data={data}
        columns={columns}
        getRowId={(o) => String(o.id)}
        label="Печи"
        sort={sort}
        onSortChange={setSort}
      />
    </MantineProvider>
  );
}

const names = () =>
  screen
    .getAllByRole('row')
    .slice(1)
    .map((row) => within(row).getAllByRole('cell')[0]?.textContent);

describe('DataTable', () => {
  const ovens: Oven[] = [
    { id: 1, name: 'Печь 10', trays: 10 },
    { id: 2, name: 'печь 2', trays: null },
    { id: 3, name: 'Ёлка', trays: 6 },
    { id: 4, name: 'Аист', trays: 20 },
  ];

  it('is a table with column headers; sortable ones are buttons with aria-sort', async () => {
    render(<Ovens data={ovens} />);
    const table = screen.getByRole('table', { name: 'Печи' });
    const headers = within(table).getAllByRole('columnheader');
    expect(headers.map((h) => h.getAttribute('aria-sort'))).toEqual(['none', 'none', null]);
    expect(within(headers[2]!).queryByRole('button')).toBeNull();
    // Data order until a sort is chosen.
    expect(names()).toEqual(['Печь 10', 'печь 2', 'Ёлка', 'Аист']);

    await userEvent.click(screen.getByRole('button', { name: /Название/ }));
    expect(headers[0]).toHaveAttribute('aria-sort', 'ascending');
    // Alphabetical in the interface language, case-insensitive, digits as numbers.
    expect(names()).toEqual(['Аист', 'Ёлка', 'печь 2', 'Печь 10']);
    await userEvent.click(screen.getByRole('button', { name: /Название/ }));
    expect(screen.getAllByRole('columnheader')[0]).toHaveAttribute('aria-sort', 'descending');
    expect(names()).toEqual(['Печь 10', 'печь 2', 'Ёлка', 'Аист']);
  });

  it('puts rows without a value last, whichever the direction', async () => {
    render(<Ovens data={ovens} initial={{ id: 'trays', desc: false }} />);
    expect(names()).toEqual(['Ёлка', 'Печь 10', 'Аист', 'печь 2']);
    await userEvent.click(screen.getByRole('button', { name: /Уровни/ }));
    expect(names()).toEqual(['Аист', 'Печь 10', 'Ёлка', 'печь 2']);
  });

  it('renders only the rows in view of a 10 000-row list, and says how many there are', () => {
    const many = Array.from({ length: 10_000 }, (_, i) => ({ id: i + 1, name: `Печь ${i + 1}`, trays: i }));
    render(<Ovens data={many} />);
    const table = screen.getByRole('table');
    expect(table).toHaveAttribute('aria-rowcount', '10001');
    const rendered = within(table).getAllByRole('row').length - 1;
    expect(rendered).toBeGreaterThan(5);
    expect(rendered).toBeLessThan(60);
    // Row links are ordinary links, reachable with Tab.
    expect(screen.getByRole('link', { name: 'Печь 1' })).toHaveAttribute('href', '/ovens/1');
  });

  it('shows "No records found" for an empty list', () => {
    render(<Ovens data={[]} />);
    expect(screen.queryByRole('table')).toBeNull();
    expect(screen.getByRole('status')).toHaveTextContent('Записей не найдено');
  });

  it('sortRows sorts like a column for callers that sort themselves', () => {
    expect(sortRows(ovens, (o) => o.name, false).map((o) => o.id)).toEqual([4, 3, 2, 1]);
    expect(sortRows(ovens, (o) => o.trays, true).map((o) => o.id)).toEqual([4, 1, 3, 2]);
  });

  it('sortRows collates repeated names once: digits as numbers, case and ё-е alike keep their order', () => {
    const rows = [
      { id: 1, name: 'Печь 10' },
      { id: 2, name: 'печь 2' },
      { id: 3, name: 'Печь 2' },
      { id: 4, name: null },
      { id: 5, name: 'Ёлка' },
      { id: 6, name: 'Печь 10' },
      { id: 7, name: 'Abat' },
    ];
    const ids = (desc: boolean) => sortRows(rows, (r) => r.name, desc, 'ru').map((r) => r.id);
    expect(ids(false)).toEqual([5, 2, 3, 1, 6, 7, 4]); // in Russian order Cyrillic comes first
    expect(ids(true)).toEqual([7, 1, 6, 2, 3, 5, 4]);
  });
});
