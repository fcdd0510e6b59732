import {
  localDateTime,
  zonedDayStart,
  type Device,
  type DeviceEvent,
  type TelemetryAnswer,
  type WashReport,
  type WorktimeDay,
} from '@kontrol/contracts';
import { Anchor, Badge, Box, Group, Paper, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { useMemo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PageLoader } from '../../../components/page-loader';
import {
  MIN_TEMPERATURE_SPAN,
  TelemetryChart,
  type TelemetryChartMarker,
  type TelemetryChartSeries,
} from '../../../components/telemetry-chart';
import { paths } from '../../../config/paths';
import { useLiveSamples, withLiveTails } from '../../../lib/use-live-samples';
import { useCurrentUser } from '../../../lib/auth/use-current-user';
import { useLiveDashboard } from '../../../lib/device-stat/use-live-dashboard';
import {
  SEVERITY_COLOURS,
  SEVERITY_HEX,
  useDashboardLabels,
} from '../../../lib/device-stat/dashboard-labels';
import { useDeviceEvents } from '../../../lib/device-events/get-device-events';
import { useDeviceTelemetry, useWashReport, useWorktime } from '../api/get-device-reports';
import { formatCalendarDate, formatMoment } from '../device-format';
import { useEquipmentReferences } from '../use-equipment-references';
import { useNow } from './use-now';

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;
/** The worktime table and the washes list cover this many local days, today included. */
const HISTORY_DAYS = 7;

/** The device's address time zone; the browser's own when the addresses are not at hand. */
function useDeviceTimeZone(device: Device): string {
  const { rooms, addresses } = useEquipmentReferences();
  const room = rooms.find((r) => r.id === device.room_id);
  const address = room && addresses.find((a) => a.id === room.address_id);
  return address?.time_zone ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
}

/** `date` (`YYYY-MM-DD`) moved by `days`. */
function shiftDate(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

/** A line of today's chart: the minute means (and their band), then the live samples after them. */
function chartLine(
  label: string,
  series: TelemetryAnswer['data']['series'][number] | undefined,
  metric: 'current' | 'temperature',
): TelemetryChartSeries {
  const t = series?.t ?? [];
  const column = (name: string) => series?.values[name] ?? t.map(() => null);
  return { label, t, values: column(metric), min: column(`${metric}_min`), max: column(`${metric}_max`) };
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Paper withBorder p="sm">
      <Text size="sm" c="dimmed" component="dt">
        {label}
      </Text>
      <Text component="dd" m={0} fw={600} size="lg">
        {children}
      </Text>
    </Paper>
  );
}

function useDuration() {
  const { t } = useTranslation();
  return (minutes: number) =>
    minutes < 60
      ? t('{{minutes}} min', { minutes })
      : t('{{hours}} h {{minutes}} min', { hours: Math.floor(minutes / 60), minutes: minutes % 60 });
}

/** Most events of one day the charts mark. */
const DAY_EVENTS = 100;

/**
 * The device's Dashboard view (docs/contract.md, "Product and areas"): today at its address — when work started, how long it
 * has worked, its current and temperature by the minute (growing live while the view is open),
 * the day's events marked on both and listed below — and the last week's worktime and washes.
 */
export function DashboardPanel({
  device,
  type,
}: {
  device: Device;
  type: { telemetry: readonly string[] } | undefined;
}) {
  const { t } = useTranslation();
  const duration = useDuration();
  const timeZone = useDeviceTimeZone(device);
  const now = useNow(MINUTE_MS);
  const today = localDateTime(now, timeZone).date;
  // The period ends at the next whole minute, so the query stays the same for a minute.
  const range = useMemo(
    () => ({ start: zonedDayStart(today, timeZone), finish: now - (now % MINUTE_MS) + MINUTE_MS }),
    [today, timeZone, now],
  );
  const dates = useMemo(() => ({ start: shiftDate(today, 1 - HISTORY_DAYS), finish: today }), [today]);
  const washRange = useMemo(
    () => ({ start: range.finish - HISTORY_DAYS * DAY_MS, finish: range.finish }),
    [range.finish],
  );
  const reportsTemperature = type?.telemetry.includes('temperature') ?? true;
  // The temperature report is a tab of the telemetry page, which needs its module.
  const canReadTelemetry = useCurrentUser().acl_modules.some((module) => module.slug === 'telemetry');
  const washes = type?.telemetry.includes('wash') ?? false;

  const telemetry = useDeviceTelemetry(device.id, range);
  // Events that started today at the address; read again when the live stream says events changed.
  const dayEvents = useDeviceEvents({
    page: 1,
    perPage: DAY_EVENTS,
    filters: { device: device.id, from: range.start },
  });
  useLiveDashboard(true);
  const events = dayEvents.data?.data;
  const markers = useMemo(
    () =>
      (events ?? []).map((event): TelemetryChartMarker => ({
        start: Date.parse(event.started_at),
        finish: event.ended_at ? Date.parse(event.ended_at) : null,
        color: SEVERITY_HEX[event.severity],
      })),
    [events],
  );
  const worktime = useWorktime(device.id, dates);
  const wash = useWashReport(device.id, washRange, washes);

  const tails = useLiveSamples([device.id], telemetry.data !== undefined, telemetry.data);
  const charted = useMemo(
    () => telemetry.data && withLiveTails(telemetry.data, tails),
    [telemetry.data, tails],
  );
  const series = charted?.series[0];
  const chartRange = useMemo(
    () => ({ start: range.start, finish: Math.max(range.finish, charted?.finish ?? 0) }),
    [range, charted],
  );
  const todayRow = worktime.data?.find((row) => row.date === today);
  const workStart = device.work_start.date === today ? device.work_start.start : null;

  return (
    <Stack gap="lg">
      <SimpleGrid cols={{ base: 1, xs: 2, md: washes ? 4 : 3 }} component="dl" m={0}>
        <Fact label={t('Work started today')}>{workStart ?? t('Not yet')}</Fact>
        <Fact label={t('Worked today')}>{todayRow ? duration(todayRow.worked_minutes) : '—'}</Fact>
        <Fact label={t('Last online')}>
          {device.last_online.last_utc ? formatMoment(device.last_online.last_utc) : t('Never')}
        </Fact>
        {washes && (
          <Fact label={t('Last wash')}>
            <WashSummary report={wash.data} />
          </Fact>
        )}
      </SimpleGrid>

      {telemetry.isPending ? (
        <PageLoader inline />
      ) : (
        <SimpleGrid cols={{ base: 1, lg: reportsTemperature ? 2 : 1 }}>
          <TelemetryChart
            title={t('Current today')}
            unit={t('A')}
            series={[chartLine(device.name, series, 'current')]}
            range={chartRange}
            gapMs={5 * MINUTE_MS}
            height={240}
            markers={markers}
          />
          {reportsTemperature && (
            <TelemetryChart
              title={t('Temperature today')}
              unit="°C"
              minSpan={MIN_TEMPERATURE_SPAN}
              series={[chartLine(device.name, series, 'temperature')]}
              range={chartRange}
              gapMs={5 * MINUTE_MS}
              height={240}
              markers={markers}
            />
          )}
        </SimpleGrid>
      )}
      {reportsTemperature && canReadTelemetry && (
        <Anchor
          component={Link}
          to={paths.account.telemetry({ tab: 'temperature', devices: [device.id] })}
          size="sm"
        >
          {t('Temperature report')}
        </Anchor>
      )}
      {events && events.length > 0 && <DayEvents events={events} />}

      <SimpleGrid cols={{ base: 1, md: washes ? 2 : 1 }}>
        <WorktimeTable rows={worktime.data} duration={duration} />
        {washes && <WashTable report={wash.data} />}
      </SimpleGrid>
    </Stack>
  );
}

/** Today's events in words: what the marks on the charts are. */
function DayEvents({ events }: { events: readonly DeviceEvent[] }) {
  const { t } = useTranslation();
  const labels = useDashboardLabels();
  const sorted = [...events].sort((a, b) => Date.parse(a.started_at) - Date.parse(b.started_at));
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="device-day-events">
      <Title order={3} size="h5" id="device-day-events" mb="xs">
        {t('Events today')}
      </Title>
      <Box component="ul" m={0} pl={0} style={{ listStyle: 'none' }}>
        {sorted.map((event) => (
          <li key={event.id}>
            <Group gap={6} wrap="nowrap">
              <Box
                component="span"
                aria-hidden="true"
                w={10}
                h={10}
                style={{ borderRadius: '50%', background: SEVERITY_COLOURS[event.severity], flex: 'none' }}
              />
              <Text size="sm" component="span">
                {formatMoment(event.started_at)} – {event.ended_at ? formatMoment(event.ended_at) : t('now')}
                {', '}
                {labels.severity[event.severity]}:{' '}
                <Anchor component={Link} to={paths.account.deviceEventTemplates.event(event.id)} fz="sm">
                  {event.title}
                </Anchor>
              </Text>
            </Group>
          </li>
        ))}
      </Box>
    </Paper>
  );
}

function WashSummary({ report }: { report: WashReport | undefined }) {
  const { t } = useTranslation();
  if (!report) return '—';
  return (
    <Group gap="xs" component="span">
      <span>{report.last_completed ? formatMoment(report.last_completed) : t('Never')}</span>
      {report.running_since ? (
        <Badge color="blue" variant="light">
          {t('Washing now')}
        </Badge>
      ) : report.outdated ? (
        <Badge color="red" variant="light">
          {t('Wash overdue')}
        </Badge>
      ) : null}
    </Group>
  );
}

function WorktimeTable({
  rows,
  duration,
}: {
  rows: WorktimeDay[] | undefined;
  duration: (minutes: number) => string;
}) {
  const { t } = useTranslation();
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="device-worktime">
      <Title order={3} size="h5" id="device-worktime" mb="xs">
        {t('Worktime, last 7 days')}
      </Title>
      {!rows ? (
        <PageLoader inline />
      ) : (
        <Table striped>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('Date')}</Table.Th>
              <Table.Th>{t('Started')}</Table.Th>
              <Table.Th>{t('Finished')}</Table.Th>
              <Table.Th ta="end">{t('Worked')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {[...rows].reverse().map((row) => (
              <Table.Tr key={row.date}>
                <Table.Td>{formatCalendarDate(row.date)}</Table.Td>
                <Table.Td>{row.start ?? '—'}</Table.Td>
                <Table.Td>{row.end ?? '—'}</Table.Td>
                <Table.Td ta="end">{row.worked_minutes > 0 ? duration(row.worked_minutes) : '—'}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Paper>
  );
}

function WashTable({ report }: { report: WashReport | undefined }) {
  const { t } = useTranslation();
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="device-washes">
      <Title order={3} size="h5" id="device-washes" mb="xs">
        {t('Washes, last 7 days')}
      </Title>
      {!report ? (
        <PageLoader inline />
      ) : report.cycles.length === 0 && !report.running_since ? (
        <Text c="dimmed" size="sm" role="status">
          {t('No washes in the last 7 days.')}
        </Text>
      ) : (
        <Table striped>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('Started')}</Table.Th>
              <Table.Th ta="end">{t('Minutes')}</Table.Th>
              <Table.Th>{t('Outcome')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {report.running_since && (
              <Table.Tr>
                <Table.Td>{formatMoment(report.running_since)}</Table.Td>
                <Table.Td ta="end">—</Table.Td>
                <Table.Td>{t('Washing now')}</Table.Td>
              </Table.Tr>
            )}
            {[...report.cycles].reverse().map((cycle) => (
              <Table.Tr key={cycle.start}>
                <Table.Td>{formatMoment(cycle.start)}</Table.Td>
                <Table.Td ta="end">{cycle.minutes}</Table.Td>
                <Table.Td>
                  {cycle.outcome === 'completed' ? t('Completed') : <Text c="red.8">{t('Aborted')}</Text>}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Paper>
  );
}
