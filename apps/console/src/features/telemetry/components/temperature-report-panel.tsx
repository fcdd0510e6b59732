import {
  MAX_TEMPERATURE_DETAIL_DAYS,
  MAX_TEMPERATURE_DETAIL_DEVICES,
  datesBetween,
  type Address,
  type Device,
  type TemperatureReportDay,
} from '@kontrol/contracts';
import { Alert, Group, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { useId, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { DateField } from '../../../components/date-fields';
import { FormFailure } from '../../../components/form-failure';
import { PageLoader } from '../../../components/page-loader';
import {
  MIN_TEMPERATURE_SPAN,
  TelemetryChart,
  seriesStyle,
  type TelemetryChartSeries,
} from '../../../components/telemetry-chart';
import { isAbortError, toApiFailure } from '../../../lib/api-errors';
import { formatNumber } from '../../../lib/format';
import { useSearchParamsState } from '../../../lib/use-search-params-state';
import { useCurrentUser } from '../../../lib/auth/use-current-user';
import { formatCalendarDate } from '../../../lib/format';
import { useReferenceList } from '../../../lib/reference-data/use-reference-data';
import { useTemperatureReport, type TemperatureReportRequest } from '../api/get-temperature-report';
import { parseDeviceIds } from '../telemetry-view';
import { TelemetryDevicePicker } from './telemetry-device-picker';

/** The report's query string: the devices (shared with the telemetry tab) and its first and last day. */
export const TEMPERATURE_PARAMS = { devices: '', from: '', to: '' } as const;

const DATE_PATTERN = /^\d{4}-\d{2}-\d{2}$/;
const HOUR_MS = 3_600_000;
/** The report's days by default: the last week, today included. */
const DEFAULT_DAYS = 7;

const pad = (value: number) => String(value).padStart(2, '0');

/** The browser's today, `YYYY-MM-DD`. */
function localToday(): string {
  const now = new Date();
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/** `date` moved by `days`. */
function shiftDate(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

/** One device's part of the report: its days in order. */
interface DeviceReport {
  device: Device | undefined;
  id: number;
  days: TemperatureReportDay[];
  outside: number | null;
}

function byDevice(
  answer: readonly TemperatureReportDay[],
  ids: readonly number[],
  devices: ReadonlyMap<number, Device>,
): DeviceReport[] {
  return ids.map((id) => {
    const days = answer.filter((day) => day.device_id === id);
    const withRange = days.filter((day) => day.outside_minutes != null);
    return {
      id,
      device: devices.get(id),
      days,
      outside:
        withRange.length === 0 ? null : withRange.reduce((sum, day) => sum + (day.outside_minutes ?? 0), 0),
    };
  });
}

/**
 * The temperature report tab (docs/telemetry.md, "Temperature report"): for the chosen devices
 * and days (each device's local days), `GET /api/devices/reports/temp?detail=hours` — per day the
 * lowest, mean and highest temperature and the time outside the device type's range, and the mean
 * of every hour on a chart.
 */
export function TemperatureReportPanel() {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const devices = useReferenceList<Device>(user, 'devices');
  const addresses = useReferenceList<Address>(user, 'addresses');
  const [params, setParams] = useSearchParamsState(TEMPERATURE_PARAMS);
  const headingId = useId();

  const chosen = useMemo(() => parseDeviceIds(params.devices), [params.devices]);
  const today = localToday();
  const to = DATE_PATTERN.test(params.to) ? params.to : today;
  const from = DATE_PATTERN.test(params.from) ? params.from : shiftDate(to, 1 - DEFAULT_DAYS);
  const problem =
    from > to
      ? t('The first day must not come after the last.')
      : datesBetween(from, to).length > MAX_TEMPERATURE_DETAIL_DAYS
        ? t('A report may cover at most {{days}} days.', { days: MAX_TEMPERATURE_DETAIL_DAYS })
        : chosen.length > MAX_TEMPERATURE_DETAIL_DEVICES
          ? t('At most {{count}} devices in one report.', { count: MAX_TEMPERATURE_DETAIL_DEVICES })
          : null;
  const request = useMemo<TemperatureReportRequest | null>(
    () => (chosen.length > 0 && problem === null ? { devices: chosen, start: from, finish: to } : null),
    [chosen, from, to, problem],
  );
  const report = useTemperatureReport(request);
  const names = useMemo(() => new Map(devices.map((device) => [device.id, device])), [devices]);
  const reports = useMemo(
    () => (request && report.data ? byDevice(report.data, request.devices, names) : []),
    [request, report.data, names],
  );
  const series = useMemo(
    () =>
      reports.map((one, index): TelemetryChartSeries => {
        const hours = one.days.flatMap((day) => day.hours ?? []);
        return {
          label: one.device?.name ?? `#${one.id}`,
          t: hours.map((hour) => Date.parse(hour.start)),
          values: hours.map((hour) => hour.avg),
          min: hours.map((hour) => hour.min),
          max: hours.map((hour) => hour.max),
          ...seriesStyle(index),
        };
      }),
    [reports],
  );
  const failure = report.error && !isAbortError(report.error) ? toApiFailure(report.error) : null;
  const setDay = (edge: 'from' | 'to', value: string) => {
    if (DATE_PATTERN.test(value)) setParams({ [edge]: value }, { replace: true });
  };

  return (
    <Stack gap="lg">
      <Paper withBorder p="md" radius="md" component="section" aria-labelledby={headingId}>
        <Stack gap="md">
          <Title order={2} size="h4" id={headingId}>
            {t('Temperature report')}
          </Title>
          <TelemetryDevicePicker
            devices={devices}
            addresses={addresses}
            value={chosen}
            onChange={(ids) => setParams({ devices: ids.join(',') })}
          />
          <Group align="flex-end" gap="md">
            <DateField
              label={t('First day')}
              value={from}
              maxDate={to}
              onChange={(next) => setDay('from', next)}
              w={180}
            />
            <DateField label={t('Last day')} value={to} onChange={(next) => setDay('to', next)} w={180} />
          </Group>
          {problem && (
            <Alert color="red" role="alert">
              {problem}
            </Alert>
          )}
        </Stack>
      </Paper>

      <FormFailure failure={failure} fields={[]} />

      {chosen.length === 0 ? (
        <Text c="dimmed" ta="center" py="xl" role="status">
          {t('Choose one or more devices for their temperature report.')}
        </Text>
      ) : request && report.isPending ? (
        <PageLoader inline />
      ) : request && report.data ? (
        <Stack gap="lg" aria-busy={report.isFetching}>
          <TelemetryChart
            title={t('Average temperature per hour')}
            unit="°C"
            series={series}
            gapMs={2 * HOUR_MS}
            minSpan={MIN_TEMPERATURE_SPAN}
          />
          {reports.map((one) => (
            <DeviceDays key={one.id} report={one} />
          ))}
        </Stack>
      ) : null}
    </Stack>
  );
}

/** A number of minutes in words: "45 min", "2 h 5 min". */
function useDuration() {
  const { t } = useTranslation();
  return (minutes: number) =>
    minutes < 60
      ? t('{{minutes}} min', { minutes })
      : t('{{hours}} h {{minutes}} min', { hours: Math.floor(minutes / 60), minutes: minutes % 60 });
}

/** One device's days: its type's range, the time outside it, and a row per day. */
function DeviceDays({ report }: { report: DeviceReport }) {
  const { t } = useTranslation();
  const duration = useDuration();
  const name = report.device?.name ?? `#${report.id}`;
  const range = report.days[0]?.range ?? null;
  const degrees = (value: number | null) =>
    value === null ? '—' : formatNumber(value, { maximumFractionDigits: 1 });
  return (
    <Paper withBorder p="md" component="section" aria-label={name}>
      <Stack gap="xs">
        <Title order={3} size="h5">
          {name}
        </Title>
        <Text size="sm">
          {range
            ? t('Range of its type: {{min}}…{{max}} °C.', { min: range.min, max: range.max })
            : t('Its type has no temperature range.')}{' '}
          {report.outside !== null &&
            t('Outside the range: {{duration}}.', { duration: duration(report.outside) })}
        </Text>
        {report.days.every((day) => day.avg === null) ? (
          <Text size="sm" c="dimmed" role="status">
            {t('No temperature on these days.')}
          </Text>
        ) : (
          <Table striped aria-label={t('{{name}}: temperature by day', { name })}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('Date')}</Table.Th>
                <Table.Th ta="end">{t('Minimum, °C')}</Table.Th>
                <Table.Th ta="end">{t('Average, °C')}</Table.Th>
                <Table.Th ta="end">{t('Maximum, °C')}</Table.Th>
                {range && <Table.Th ta="end">{t('Outside the range')}</Table.Th>}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {report.days.map((day) => (
                <Table.Tr key={day.date}>
                  <Table.Td>{formatCalendarDate(day.date)}</Table.Td>
                  <Table.Td ta="end">{degrees(day.min)}</Table.Td>
                  <Table.Td ta="end">{degrees(day.avg)}</Table.Td>
                  <Table.Td ta="end">{degrees(day.max)}</Table.Td>
                  {range && (
                    <Table.Td ta="end">{day.outside_minutes ? duration(day.outside_minutes) : '—'}</Table.Td>
                  )}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Stack>
    </Paper>
  );
}
