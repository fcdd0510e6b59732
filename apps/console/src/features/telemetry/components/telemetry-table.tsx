import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTable, type DataTableColumn } from '../../../components/data-table';
import { formatDateTime, useIntlLocale } from '../../../lib/format';
import type { RollupRow, SampleRow } from '../telemetry-data';

function useFormats() {
  const locale = useIntlLocale();
  return useMemo(() => {
    const number = new Intl.NumberFormat(locale, { maximumFractionDigits: 1 });
    const percent = new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 0 });
    return {
      time: (ms: number) => formatDateTime(ms, { seconds: true }),
      number: (value: number | null) => (value === null ? '—' : number.format(value)),
      percent: (value: number | null) => (value === null ? '—' : percent.format(value)),
    };
  }, [locale]);
}

const NUMBER_WIDTH = 'minmax(6.5rem, 1fr)';

/** The first two columns of both tables: when, and which device. */
function timeAndDevice<T extends { t: number; device: string }>(
  timeHeader: string,
  deviceHeader: string,
  formatTime: (ms: number) => string,
): DataTableColumn<T>[] {
  return [
    {
      id: 'time',
      header: timeHeader,
      width: 'minmax(10rem, 1.3fr)',
      cell: (row) => formatTime(row.t),
      sortValue: (row) => row.t,
    },
    {
      id: 'device',
      header: deviceHeader,
      width: 'minmax(10rem, 2fr)',
      cell: (row) => row.device,
      sortValue: (row) => row.device,
    },
  ];
}

/**
 * The rollups the charts show, as a table: one row per device and bucket with the means, minimums
 * and maximums of current and temperature and the working share. Virtualised: a month of minutes
 * of 50 devices scrolls smoothly.
 */
export function RollupTable({ rows, label }: { rows: readonly RollupRow[]; label: string }) {
  const { t } = useTranslation();
  const format = useFormats();
  const columns = useMemo<DataTableColumn<RollupRow>[]>(
    () => [
      ...timeAndDevice<RollupRow>(t('Time'), t('Device'), format.time),
      ...(
        [
          ['current', t('Current, A (mean)'), (row: RollupRow) => row.current],
          ['current_min', t('Current, A (min)'), (row: RollupRow) => row.currentMin],
          ['current_max', t('Current, A (max)'), (row: RollupRow) => row.currentMax],
          ['temperature', t('Temperature, °C (mean)'), (row: RollupRow) => row.temperature],
          ['temperature_min', t('Temperature, °C (min)'), (row: RollupRow) => row.temperatureMin],
          ['temperature_max', t('Temperature, °C (max)'), (row: RollupRow) => row.temperatureMax],
        ] as const
      ).map(([id, header, value]): DataTableColumn<RollupRow> => ({
        id,
        header,
        width: NUMBER_WIDTH,
        align: 'end',
        cell: (row) => format.number(value(row)),
        sortValue: value,
      })),
      {
        id: 'working',
        header: t('Working'),
        width: 'minmax(6rem, 1fr)',
        align: 'end',
        cell: (row) => format.percent(row.working),
        sortValue: (row) => row.working,
      },
    ],
    [t, format],
  );
  return <DataTable data={rows} columns={columns} getRowId={(row) => row.id} label={label} rowHeight={36} />;
}

/** A page of raw samples as a table: time, device, current, temperature and state of each. */
export function SampleTable({ rows, label }: { rows: readonly SampleRow[]; label: string }) {
  const { t } = useTranslation();
  const format = useFormats();
  const stateLabels = useMemo<Record<string, string>>(
    () => ({
      off: t('Off'),
      idle: t('Idle'),
      heating: t('Heating'),
      cooking: t('Cooking'),
      washing: t('Washing'),
      fault: t('Fault'),
    }),
    [t],
  );
  const columns = useMemo<DataTableColumn<SampleRow>[]>(
    () => [
      ...timeAndDevice<SampleRow>(t('Time'), t('Device'), format.time),
      {
        id: 'current',
        header: t('Current, A'),
        width: NUMBER_WIDTH,
        align: 'end',
        cell: (row) => format.number(row.current),
        sortValue: (row) => row.current,
      },
      {
        id: 'temperature',
        header: t('Temperature, °C'),
        width: NUMBER_WIDTH,
        align: 'end',
        cell: (row) => format.number(row.temperature),
        sortValue: (row) => row.temperature,
      },
      {
        id: 'state',
        header: t('State'),
        width: 'minmax(7rem, 1fr)',
        cell: (row) => (row.state ? (stateLabels[row.state] ?? row.state) : '—'),
        sortValue: (row) => (row.state ? (stateLabels[row.state] ?? row.state) : null),
      },
    ],
    [t, format, stateLabels],
  );
  return <DataTable data={rows} columns={columns} getRowId={(row) => row.id} label={label} rowHeight={36} />;
}
