import { Box } from '@mantine/core';
import {
  constructSortFn,
  createSortedRowModel,
  rowSortingFeature,
  tableFeatures,
  useTable,
  type ColumnDef,
  type RowData,
  type SortingState,
} from '@tanstack/react-table';
import { observeElementRect, useVirtualizer } from '@tanstack/react-virtual';
import { memo, useMemo, useRef, type CSSProperties, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { getLocale } from '../lib/i18n';
import classes from './data-table.module.css';
import { NoRecords } from './no-records';

/** One column of a {@link DataTable}. */
export interface DataTableColumn<T> {
  /** Stable id; also the id a sort state names (`{id, desc}`). */
  id: string;
  /** The header text, already translated. */
  header: string;
  /** What the cell shows. Keep it one line: rows have a fixed height. */
  cell: (row: T) => ReactNode;
  /**
   * The value the column sorts by; a column without one is not sortable. Strings sort in the
   * interface language's alphabetical order (digits as numbers), numbers numerically; `null` (no
   * value) always goes last.
   */
  sortValue?: (row: T) => string | number | null;
  /** A CSS grid track for the column, e.g. `'minmax(12rem, 2fr)'` or `'8rem'`. Default `'minmax(8rem, 1fr)'`. */
  width?: string;
  /** `'end'` for numbers. */
  align?: 'start' | 'end';
}

/** The sort of a table: a column id and a direction, or none. */
export interface DataTableSort {
  id: string;
  desc: boolean;
}

export interface DataTableProps<T extends RowData> {
  data: readonly T[];
  columns: readonly DataTableColumn<T>[];
  /** Stable row identity (a record id), so rows keep their DOM nodes while scrolling and sorting. */
  getRowId: (row: T) => string;
  /** The table's accessible name (e.g. the screen's title). */
  label: string;
  /** Controlled sort; `null` keeps `data`'s own order. */
  sort?: DataTableSort | null;
  /** Called when a sortable header is pressed: first ascending, then descending, then ascending again. */
  onSortChange?: (sort: DataTableSort) => void;
  /**
   * `true` when `data` arrives already sorted by `sort` (the caller sorts, e.g. once for a big list
   * and then only filters); the headers still show and change the sort.
   */
  manualSorting?: boolean;
  /** Fixed row height in pixels (rows are virtualised). Default 44. */
  rowHeight?: number;
  /** The scroll area's largest height (CSS). Default: the viewport minus the page's chrome, at least 320 px. */
  maxHeight?: CSSProperties['maxHeight'];
}

const features = tableFeatures({ rowSortingFeature, sortedRowModel: createSortedRowModel() });

/** Height used when the scroll area has not been laid out (hidden, or a DOM without layout). */
const UNMEASURED_HEIGHT = 600;

/**
 * TanStack Virtual's element observer, but a scroll area not laid out yet (hidden, or a DOM without
 * layout such as the tests') counts as {@link UNMEASURED_HEIGHT} tall instead of 0, so the first
 * rows render rather than none. For other virtualised lists too (`observeElementRect` option).
 */
export const observeElementRectOrFallback: typeof observeElementRect = (instance, callback) =>
  observeElementRect(instance, (rect) =>
    callback(rect.height > 0 ? rect : { width: rect.width, height: UNMEASURED_HEIGHT }),
  );

/**
 * A table for long lists: TanStack Table keeps the columns and the sort, TanStack Virtual renders
 * only the rows in view (10 000 rows scroll smoothly). It keeps table semantics for assistive
 * technology: explicit `table`/`row`/`columnheader`/`cell` roles (a grid-laid-out table loses
 * its implicit roles in some browsers), `aria-rowcount` and `aria-rowindex` so a screen reader
 * knows where a rendered row sits in the whole list, sortable headers as buttons with
 * `aria-sort`. Links in cells are ordinary tab stops. An empty list shows {@link NoRecords}.
 * Rows in view are plain elements, memoised: filtering or scrolling renders only rows that changed.
 */
export function DataTable<T extends RowData>({
  data,
  columns,
  getRowId,
  label,
  sort = null,
  onSortChange,
  manualSorting = false,
  rowHeight = 44,
  maxHeight = 'max(320px, calc(100dvh - 300px))',
}: DataTableProps<T>) {
  const { t } = useTranslation();
  const locale = getLocale();
  const columnDefs = useMemo(() => toColumnDefs(columns, locale), [columns, locale]);
  const sorting = useMemo<SortingState>(() => (sort ? [sort] : []), [sort]);
  // The table may keep the handler of an earlier render: it always calls the latest one.
  const onSortChangeRef = useRef(onSortChange);
  onSortChangeRef.current = onSortChange;
  const table = useTable({
    features,
    columns: columnDefs,
    data,
    getRowId: (row) => getRowId(row),
    state: { sorting },
    onSortingChange: (updater) => {
      const next = typeof updater === 'function' ? updater(sorting) : updater;
      if (next[0]) onSortChangeRef.current?.(next[0]);
    },
    manualSorting,
    enableSortingRemoval: false,
    enableMultiSort: false,
  });
  // Sorted by the caller, the records are shown as given: TanStack's row model (an object per
  // record, made again whenever `data` changes) would cost a chain's 50 000 devices half a second.
  const rows = manualSorting ? undefined : table.getRowModel().rows;
  const count = rows ? rows.length : data.length;
  const recordAt = (index: number): T | undefined => (rows ? rows[index]?.original : data[index]);
  const idAt = (index: number): string | undefined => {
    if (rows) return rows[index]?.id;
    const record = data[index];
    return record === undefined ? undefined : getRowId(record);
  };
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => rowHeight,
    getItemKey: (index) => idAt(index) ?? index,
    overscan: 10,
    observeElementRect: observeElementRectOrFallback,
  });

  if (data.length === 0) return <NoRecords />;

  const gridTemplateColumns = columns.map((column) => column.width ?? 'minmax(8rem, 1fr)').join(' ');

  return (
    <Box
      ref={scrollRef}
      style={{ maxHeight, overflow: 'auto', position: 'relative' }}
      // The scroll area is focusable so keyboard users can scroll it (axe: scrollable-region-focusable).
      tabIndex={0}
      role="region"
      aria-label={label}
    >
      <table role="table" aria-label={label} aria-rowcount={count + 1} className={classes.table}>
        <thead role="rowgroup" className={classes.head}>
          {table.getHeaderGroups().map((group) => (
            <tr
              key={group.id}
              role="row"
              aria-rowindex={1}
              className={classes.row}
              style={{ gridTemplateColumns }}
            >
              {group.headers.map((header) => {
                const column = columns.find((c) => c.id === header.column.id);
                const sorted = header.column.getIsSorted();
                const sortable = header.column.getCanSort();
                return (
                  <th
                    key={header.id}
                    role="columnheader"
                    aria-sort={
                      sorted === 'asc'
                        ? 'ascending'
                        : sorted === 'desc'
                          ? 'descending'
                          : sortable
                            ? 'none'
                            : undefined
                    }
                    className={cellClass(column?.align)}
                  >
                    {sortable ? (
                      <button
                        type="button"
                        className={classes.sort}
                        onClick={header.column.getToggleSortingHandler()}
                        title={t('Sort by this column')}
                      >
                        {column?.header}
                        <span
                          aria-hidden="true"
                          className={classes.sortMark}
                          data-active={sorted || undefined}
                        >
                          {sorted === 'desc' ? '↓' : sorted === 'asc' ? '↑' : '↕'}
                        </span>
                      </button>
                    ) : (
                      column?.header
                    )}
                  </th>
                );
              })}
            </tr>
          ))}
        </thead>
        <tbody role="rowgroup" className={classes.body} style={{ height: virtualizer.getTotalSize() }}>
          {virtualizer.getVirtualItems().map((item) => {
            const record = recordAt(item.index);
            if (record === undefined) return null;
            return (
              <BodyRow
                key={item.key}
                original={record}
                columns={columns}
                rowIndex={item.index + 2}
                start={item.start}
                height={rowHeight}
                gridTemplateColumns={gridTemplateColumns}
              />
            );
          })}
        </tbody>
      </table>
    </Box>
  );
}

const cellClass = (align: 'start' | 'end' | undefined) =>
  align === 'end' ? `${classes.cell} ${classes.end}` : classes.cell;

interface BodyRowProps<T> {
  original: T;
  columns: readonly DataTableColumn<T>[];
  rowIndex: number;
  start: number;
  height: number;
  gridTemplateColumns: string;
}

/**
 * One row in view. Memoised: when the list is filtered or scrolled, rows that stay on screen with
 * the same record and place are not rendered again.
 */
const BodyRow = memo(function BodyRow<T>({
  original,
  columns,
  rowIndex,
  start,
  height,
  gridTemplateColumns,
}: BodyRowProps<T>) {
  return (
    <tr
      role="row"
      aria-rowindex={rowIndex}
      className={classes.row}
      style={{ gridTemplateColumns, height, transform: `translateY(${start}px)` }}
    >
      {columns.map((column) => (
        <td key={column.id} role="cell" className={cellClass(column.align)}>
          {column.cell(original)}
        </td>
      ))}
    </tr>
  );
}) as <T>(props: BodyRowProps<T>) => ReactNode;

type Features = typeof features;

function toColumnDefs<T extends RowData>(
  columns: readonly DataTableColumn<T>[],
  locale: string,
): ColumnDef<Features, T>[] {
  const collator = new Intl.Collator(locale, { numeric: true, sensitivity: 'base' });
  const compare = constructSortFn({
    sort: (a: string | number, b: string | number) =>
      typeof a === 'number' && typeof b === 'number' ? a - b : collator.compare(String(a), String(b)),
  });
  return columns.map((column) => {
    const { sortValue } = column;
    return {
      id: column.id,
      header: column.header,
      // null becomes undefined so that `sortUndefined: 'last'` puts rows without a value at the end.
      accessorFn: (row: T) => (sortValue ? (sortValue(row) ?? undefined) : undefined),
      enableSorting: sortValue !== undefined,
      sortFn: compare,
      sortUndefined: 'last',
      // TanStack starts number columns descending; every column here starts ascending, as documented.
      sortDescFirst: false,
    } satisfies ColumnDef<Features, T>;
  });
}

/**
 * Sorts `rows` the way a {@link DataTable} column does (interface-language alphabetical order, digits
 * as numbers, values missing last), for callers that sort themselves (`manualSorting`). Texts are
 * collated once per distinct text and the rows then sorted by rank: a fleet repeats its model names
 * a lot, and collating is the costly part (10 000 devices: tens of milliseconds). Rows whose
 * values collate equal keep their order.
 */
export function sortRows<T>(
  rows: readonly T[],
  value: (row: T) => string | number | null,
  desc: boolean,
  locale: string = getLocale(),
): T[] {
  const collator = new Intl.Collator(locale, { numeric: true, sensitivity: 'base' });
  const keyed = rows.map((row) => ({ row, key: value(row) }));
  const texts = [...new Set(keyed.map((entry) => entry.key).filter((key) => typeof key === 'string'))];
  texts.sort(collator.compare);
  const rankOf = new Map<string, number>();
  texts.forEach((text, index) => {
    const previous = texts[index - 1];
    const same = previous !== undefined && collator.compare(previous, text) === 0;
    rankOf.set(text, same ? (rankOf.get(previous) ?? index) : index);
  });
  const rank = (key: string | number) => (typeof key === 'string' ? (rankOf.get(key) ?? 0) : key);
  const direction = desc ? -1 : 1;
  keyed.sort((a, b) => {
    if (a.key === null || b.key === null) return a.key === b.key ? 0 : a.key === null ? 1 : -1;
    return (rank(a.key) - rank(b.key)) * direction;
  });
  return keyed.map((entry) => entry.row);
}
