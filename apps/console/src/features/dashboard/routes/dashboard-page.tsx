import {
  DASHBOARD_REPORTS,
  type Address,
  type DashboardDevice,
  type DashboardCounters,
  type DashboardReport,
  type DeviceType,
  type Room,
} from '@kontrol/contracts';
import {
  Button,
  Grid,
  Group,
  Paper,
  SegmentedControl,
  Select,
  Skeleton,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { lazy, memo, Suspense, useCallback, useDeferredValue, useId, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { FormFailure } from '../../../components/form-failure';
import { isAbortError, toApiFailure } from '../../../lib/api-errors';
import { loadChunk } from '../../../lib/lazy-route';
import { useSearchParamsState } from '../../../lib/use-search-params-state';
import { useCurrentUser } from '../../../lib/auth/use-current-user';
import { useReferenceList } from '../../../lib/reference-data/use-reference-data';
import { useDeviceStat } from '../../../lib/device-stat/get-device-stat';
import { useLiveDashboard } from '../../../lib/device-stat/use-live-dashboard';
import { ActivityFeed } from '../components/activity-feed';
import { DashboardCounterCards } from '../components/dashboard-counters';
import { DevicesTable } from '../components/devices-table';
import { ProblemsList } from '../components/problems-list';
import { StatusCircles, type StatusCircle } from '../components/status-circles';
import { formatCalendarDate, zonedToday } from '../../../lib/format';
import { browserTimeZone, browserToday } from '../dashboard-format';
import { allProblems, countDevices } from '../../../lib/device-stat/dashboard-model';
import { useDashboardRows } from '../use-dashboard-rows';
import { useServerNow } from '../../../lib/device-stat/use-server-now';
import { useStableValue } from '../use-stable-value';

// The graph brings uPlot: it loads beside the statistics, and nothing else waits for it.
const DashboardGraph = lazy(async () => ({
  default: (await loadChunk(() => import('../components/dashboard-graph'))).DashboardGraph,
}));

// The calendar (@mantine/dates and dayjs) stays out of the page's first scripts: the field comes a
// moment later, its place held by the date as text.
const DateField = lazy(async () => ({
  default: (await loadChunk(() => import('../../../components/date-fields'))).DateField,
}));
const DATE_WIDTH = 170;

/** The page's query string: device type, graph date, the device whose day the graph shows, its metric. */
const DASHBOARD_PARAMS = { type: '', date: '', device: '', report: 'current' } as const;

const DATE_PATTERN = /^\d{4}-\d{2}-\d{2}$/;

function parseId(value: string): number | null {
  return /^\d{1,10}$/.test(value) && Number(value) > 0 ? Number(value) : null;
}

const sameCounters = (a: DashboardCounters | undefined, b: DashboardCounters | undefined) =>
  a !== undefined &&
  b !== undefined &&
  (Object.keys(a) as (keyof DashboardCounters)[]).every((key) => a[key] === b[key]);

const sameCircles = (a: readonly StatusCircle[] | undefined, b: readonly StatusCircle[] | undefined) =>
  a !== undefined &&
  b !== undefined &&
  a.length === b.length &&
  a.every((circle, index) => {
    const other = b[index];
    return (
      other !== undefined &&
      circle.id === other.id &&
      circle.online === other.online &&
      circle.attention === other.attention &&
      circle.name === other.name
    );
  });

/**
 * `/account/dashboard` (docs/contract.md, "Product and areas", "States and transitions"; docs/dashboard.md): the six counters, each a link to the
 * devices it counts; the graph of the fleet's day (or one device's day, with its events); status
 * circles; the device table with a filter; the problems; the activity feed. The device type filter
 * narrows every one of them. One statistics request feeds all but the graph and the feed; live
 * updates patch it in place and the rules are recomputed here, for the devices that changed only.
 */
export function DashboardPage() {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const [params, setParams] = useSearchParamsState(DASHBOARD_PARAMS);
  const type = parseId(params.type);
  const selectedId = parseId(params.device);
  const report: DashboardReport['report'] = (DASHBOARD_REPORTS as readonly string[]).includes(params.report)
    ? (params.report as DashboardReport['report'])
    : 'current';

  const stat = useDeviceStat(type);
  useLiveDashboard(true);
  const now = useServerNow(stat.data?.clockOffsetMs ?? 0);
  // The graph reads the clock to the minute: a new statistics answer (a new offset) does not
  // render it again.
  const minute = now - (now % 60_000);
  const types = useReferenceList<DeviceType>(user, 'deviceTypes');
  const addresses = useReferenceList<Address>(user, 'addresses');
  const rooms = useReferenceList<Room>(user, 'rooms');

  // The statistics' answer (and each live update) re-renders this page at once: a store update,
  // never time-sliced. What it feeds (counters, table, circles, problems) follows in a deferred
  // render that runs in slices; the rest of the page (the type filter, the graph's section) are
  // memoised components whose props the answer does not change, so the immediate render is short.
  const devices = useDeferredValue(stat.data?.devices);
  const counters = useStableValue(
    useMemo(() => devices && countDevices(devices, now), [devices, now]),
    sameCounters,
  );
  const rows = useDashboardRows(devices, now, { types, addresses, rooms });
  const circles = useStableValue(
    useMemo(
      () =>
        rows?.map((row): StatusCircle => ({
          id: row.device.id,
          name: row.device.name,
          online: !row.flags.offline,
          attention: row.status === 'problem',
        })),
      [rows],
    ),
    sameCircles,
  );
  // A circle per device is thousands of elements, and the problems of a big fleet thousands of
  // rows to sort: both follow once the counters and the table have painted, never holding them up.
  const deferredCircles = useDeferredValue(circles);
  const deferredDevices = useDeferredValue(devices);
  const problems = useMemo(
    () => deferredDevices && allProblems(deferredDevices, now),
    [deferredDevices, now],
  );
  // The graph's device name reads the answer as it is: a name must not go missing while a render
  // is deferred.
  const current = stat.data?.devices;
  const byId = useMemo(() => new Map((current ?? []).map((device) => [device.id, device])), [current]);
  const selected = selectedId === null ? null : (byId.get(selectedId) ?? null);

  const select = useCallback(
    (id: number) => setParams({ device: String(id) }, { replace: true }),
    [setParams],
  );
  const chooseType = useCallback(
    (value: string | null) => setParams({ type: value ?? '', device: '' }),
    [setParams],
  );
  const failure = stat.error && !stat.data && !isAbortError(stat.error) ? toApiFailure(stat.error) : null;
  // The page mounts in three commits, each in a deferred render after the one before: the filter
  // and the counters, then the graph's section, then the circles, the table, the problems and the
  // feed. One commit of everything was a long task of its own, in which the page could not answer
  // input.
  const showGraph = useDeferredValue(true, false);
  const showRest = useDeferredValue(showGraph, false);

  return (
    <Stack gap="md">
      <TypeFilter types={types} type={type} onChange={chooseType} />

      {failure && (
        <Stack gap="xs" align="flex-start">
          <FormFailure failure={failure} fields={[]} />
          <Button variant="default" onClick={() => void stat.refetch()}>
            {t('Try again')}
          </Button>
        </Stack>
      )}

      <DashboardCounterCards counters={failure ? undefined : counters} type={type} />

      <Grid gap="md">
        {showGraph && (
          <Grid.Col span={{ base: 12, lg: 8 }}>
            <GraphSection
              type={type}
              now={minute}
              selected={selected}
              missing={!selected && selectedId !== null && current !== undefined}
              date={params.date}
              report={report}
              setParams={setParams}
            />
          </Grid.Col>
        )}
        {showRest && (
          <>
            <Grid.Col span={{ base: 12, lg: 4 }}>
              <StatusCircles circles={failure ? [] : deferredCircles} />
            </Grid.Col>
            <Grid.Col span={12}>
              <DevicesTable rows={failure ? [] : rows} selected={selected?.id ?? null} onSelect={select} />
            </Grid.Col>
            <Grid.Col span={{ base: 12, lg: 7 }}>
              <ProblemsList problems={failure ? [] : problems} />
            </Grid.Col>
            <Grid.Col span={{ base: 12, lg: 5 }}>
              <ActivityFeed type={type} />
            </Grid.Col>
          </>
        )}
      </Grid>
    </Stack>
  );
}

/** The device type filter above the page. */
const TypeFilter = memo(function TypeFilter({
  types,
  type,
  onChange,
}: {
  types: readonly DeviceType[];
  type: number | null;
  onChange: (value: string | null) => void;
}) {
  const { t } = useTranslation();
  const options = useMemo(() => types.map((x) => ({ value: String(x.id), label: x.name })), [types]);
  return (
    <Group justify="space-between" align="end">
      <Select
        label={t('Device type')}
        placeholder={t('All types')}
        data={options}
        value={type === null ? null : String(type)}
        onChange={onChange}
        clearable
        // The list mounts when opened: a kept dropdown is positioned (a forced layout and a
        // synchronous re-render) in the commit that first shows the page.
        comboboxProps={{ keepMounted: false }}
        w={{ base: '100%', xs: 260 }}
      />
    </Group>
  );
});

/**
 * The graph of the fleet's day, or of the selected device's day with its metric, and the date.
 * `date` is the page's `date` parameter (empty: today).
 */
const GraphSection = memo(function GraphSection({
  type,
  now,
  selected,
  missing,
  date: dateParam,
  report,
  setParams,
}: {
  /** The type filter's device type: the fleet graph counts its devices only. */
  type: number | null;
  /** The server's clock (epoch ms, to the minute): the fleet graph draws the hours begun by then. */
  now: number;
  selected: DashboardDevice | null;
  /** A device was asked for (`?device=`) that the statistics do not hold. */
  missing: boolean;
  date: string;
  report: DashboardReport['report'];
  setParams: (
    patch: Partial<Record<keyof typeof DASHBOARD_PARAMS, string>>,
    options?: { replace?: boolean },
  ) => void;
}) {
  const { t } = useTranslation();
  const headingId = useId();
  // Today by default: the browser's for the fleet, the device's address's for one device.
  const today = selected ? zonedToday(selected.time_zone) : browserToday();
  const date = DATE_PATTERN.test(dateParam) ? dateParam : today;
  return (
    <Paper withBorder p="md" component="section" aria-labelledby={headingId} h="100%">
      <Stack gap="sm">
        <Group justify="space-between" align="end">
          <Title order={2} size="h4" id={headingId}>
            {selected ? t('Day of {{name}}', { name: selected.name }) : t('Day of all devices')}
          </Title>
          <Group gap="sm" align="end">
            {selected && (
              <>
                <SegmentedControl
                  aria-label={t('Metric')}
                  value={report}
                  onChange={(next) => setParams({ report: next }, { replace: true })}
                  data={[
                    { value: 'current', label: t('Current') },
                    { value: 'temperature', label: t('Temperature') },
                  ]}
                />
                <Button variant="default" onClick={() => setParams({ device: '' }, { replace: true })}>
                  {t('Back to all devices')}
                </Button>
              </>
            )}
            <Suspense
              fallback={
                <TextInput label={t('Date')} value={formatCalendarDate(date)} readOnly w={DATE_WIDTH} />
              }
            >
              <DateField
                label={t('Date')}
                value={date}
                maxDate={today}
                onChange={(next) => {
                  if (DATE_PATTERN.test(next))
                    setParams({ date: next === today ? '' : next }, { replace: true });
                }}
                w={DATE_WIDTH}
              />
            </Suspense>
          </Group>
        </Group>
        {missing && (
          <Text size="sm" c="dimmed" role="status">
            {t('That device is not among those shown.')}
          </Text>
        )}
        <Suspense fallback={<Skeleton height={320} />}>
          <DashboardGraph
            date={date}
            timeZone={browserTimeZone()}
            type={type}
            now={now}
            device={selected}
            report={report}
          />
        </Suspense>
      </Stack>
    </Paper>
  );
});
