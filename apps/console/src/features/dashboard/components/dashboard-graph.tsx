import {
  zonedDayStart,
  type DashboardDevice,
  type DashboardReport,
  type PreferGraph,
} from '@kontrol/contracts';
import { Anchor, Box, Group, Skeleton, Stack, Text } from '@mantine/core';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { FormFailure } from '../../../components/form-failure';
import {
  MIN_TEMPERATURE_SPAN,
  seriesStyle,
  TelemetryChart,
  type TelemetryChartMarker,
  type TelemetryChartSeries,
} from '../../../components/telemetry-chart';
import { paths } from '../../../config/paths';
import { isAbortError, toApiFailure } from '../../../lib/api-errors';
import { useDashboardReport } from '../api/get-dashboard-report';
import { usePreferGraph } from '../api/get-prefer-graph';
import {
  SEVERITY_COLOURS,
  SEVERITY_HEX,
  useDashboardLabels,
} from '../../../lib/device-stat/dashboard-labels';
import { formatTime } from '../dashboard-format';

const HOUR_MS = 3_600_000;
const MINUTE_MS = 60_000;
const CHART_HEIGHT = 260;

function GraphLoading() {
  const { t } = useTranslation();
  return <Skeleton height={CHART_HEIGHT + 60} aria-label={t('Loading…')} role="status" />;
}

function GraphFailure({ error }: { error: unknown }) {
  return <FormFailure failure={isAbortError(error) ? null : toApiFailure(error)} fields={[]} />;
}

/**
 * The dashboard's graph (loaded on demand with uPlot, so the counters and lists never wait for
 * it): the devices (of the chosen `type`, or all) online, working and washing per hour of `date`
 * in the browser's zone up to `now`, or, with a device chosen, that device's day by the minute
 * with its events marked.
 */
export function DashboardGraph({
  date,
  timeZone,
  type,
  now,
  device,
  report,
}: {
  date: string;
  timeZone: string;
  type: number | null;
  /** The server's clock (epoch ms): the hours that have not begun are not drawn. */
  now: number;
  device: DashboardDevice | null;
  report: DashboardReport['report'];
}) {
  return device ? (
    <DeviceDayGraph date={date} device={device} report={report} />
  ) : (
    <FleetGraph date={date} timeZone={timeZone} type={type} now={now} />
  );
}

/**
 * The fleet graph's lines over the whole day: an hour that has not begun at `now` has no value
 * (the lines stop there), where the answer's 0 would read as the whole fleet gone offline.
 */
export function fleetGraphLines(
  hours: PreferGraph['hours'],
  now: number,
  labels: { online: string; working: string; washing: string },
) {
  const times = hours.map((hour) => Date.parse(hour.start));
  const begun = (index: number) => (times[index] as number) <= now;
  const line = (
    label: string,
    index: number,
    value: (hour: PreferGraph['hours'][number]) => number,
  ): TelemetryChartSeries => ({
    label,
    t: times,
    values: hours.map((hour, at) => (begun(at) ? value(hour) : null)),
    ...seriesStyle(index),
  });
  return {
    series: [
      line(labels.online, 2, (hour) => hour.online),
      line(labels.working, 1, (hour) => hour.working),
      line(labels.washing, 0, (hour) => hour.washing),
    ],
    range:
      times.length > 0
        ? { start: times[0] as number, finish: (times[times.length - 1] as number) + HOUR_MS }
        : undefined,
  };
}

function FleetGraph({
  date,
  timeZone,
  type,
  now,
}: {
  date: string;
  timeZone: string;
  type: number | null;
  now: number;
}) {
  const { t } = useTranslation();
  const graph = usePreferGraph({ date, tz: timeZone, type });
  const hours = graph.data?.hours;
  // The first hour not yet begun, as a moment that changes only when an hour begins: the lines are
  // worked out again then, not on every tick of the clock.
  const next = hours?.find((hour) => Date.parse(hour.start) > now);
  const until = next ? Date.parse(next.start) - 1 : Number.POSITIVE_INFINITY;
  const chart = useMemo(
    () =>
      fleetGraphLines(hours ?? [], until, {
        online: t('Online'),
        working: t('Working'),
        washing: t('Washing'),
      }),
    [hours, until, t],
  );

  if (graph.isPending) return <GraphLoading />;
  if (graph.error && !graph.data) return <GraphFailure error={graph.error} />;
  return (
    <Box aria-busy={graph.isFetching}>
      <TelemetryChart
        title={t('Devices by hour')}
        unit={t('pcs')}
        series={chart.series}
        range={chart.range}
        digits={0}
        height={CHART_HEIGHT}
      />
    </Box>
  );
}

function DeviceDayGraph({
  date,
  device,
  report,
}: {
  date: string;
  device: DashboardDevice;
  report: DashboardReport['report'];
}) {
  const { t } = useTranslation();
  const request = useMemo(() => ({ date, device: device.id, report }), [date, device.id, report]);
  const answer = useDashboardReport(request);
  const data = answer.data;
  const chart = useMemo(() => {
    if (!data) return null;
    const start = zonedDayStart(data.date, data.time_zone);
    const next = new Date(Date.parse(`${data.date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
    return {
      series: [{ label: device.name, t: data.t, values: data.mean, min: data.min, max: data.max }],
      range: { start, finish: zonedDayStart(next, data.time_zone) },
      markers: data.events.map((event): TelemetryChartMarker => ({
        start: Date.parse(event.started_at),
        finish: event.ended_at ? Date.parse(event.ended_at) : null,
        color: SEVERITY_HEX[event.severity],
      })),
    };
  }, [data, device.name]);

  if (answer.isPending) return <GraphLoading />;
  if (answer.error || !data || !chart) return <GraphFailure error={answer.error} />;
  return (
    <Stack gap="sm">
      <TelemetryChart
        title={
          data.report === 'current'
            ? t('{{name}}: current', { name: device.name })
            : t('{{name}}: temperature', { name: device.name })
        }
        unit={data.report === 'current' ? t('A') : '°C'}
        minSpan={data.report === 'current' ? undefined : MIN_TEMPERATURE_SPAN}
        series={chart.series}
        range={chart.range}
        gapMs={5 * MINUTE_MS}
        height={CHART_HEIGHT}
        markers={chart.markers}
      />
      <DayEvents report={data} washes={device.wash_interval_hours !== null} />
    </Stack>
  );
}

/** The day's events in words: what the marks on the chart are. */
function DayEvents({ report, washes }: { report: DashboardReport; washes: boolean }) {
  const { t } = useTranslation();
  const labels = useDashboardLabels();
  const { work } = report;
  return (
    <Stack gap={4}>
      <Text size="sm">
        {work.start
          ? t('Worked {{start}}–{{end}}, {{duration}}.', {
              start: work.start,
              end: work.end ?? '…',
              duration:
                work.worked_minutes < 60
                  ? t('{{minutes}} min', { minutes: work.worked_minutes })
                  : t('{{hours}} h {{minutes}} min', {
                      hours: Math.floor(work.worked_minutes / 60),
                      minutes: work.worked_minutes % 60,
                    }),
            })
          : t('Did not work this day.')}{' '}
        {washes &&
          t('Washes: {{count}}', { count: report.washes.filter((w) => w.outcome === 'completed').length })}
      </Text>
      {report.events.length === 0 ? (
        <Text size="sm" c="dimmed" role="status">
          {t('No events this day.')}
        </Text>
      ) : (
        <Box component="ul" m={0} pl={0} style={{ listStyle: 'none' }} aria-label={t('Events of the day')}>
          {report.events.map((event) => (
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
                  {formatTime(event.started_at)}–{event.ended_at ? formatTime(event.ended_at) : t('now')}{' '}
                  {labels.severity[event.severity]}:{' '}
                  <Anchor component={Link} to={paths.account.deviceEventTemplates.event(event.id)} fz="sm">
                    {event.title}
                  </Anchor>
                </Text>
              </Group>
            </li>
          ))}
        </Box>
      )}
    </Stack>
  );
}
