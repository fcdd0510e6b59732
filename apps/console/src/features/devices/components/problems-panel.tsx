import type { DashboardDevice, Device, DeviceEvent } from '@kontrol/contracts';
import { Anchor, Badge, Box, Group, Paper, Skeleton, Stack, Table, Text, Title } from '@mantine/core';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { FormFailure } from '../../../components/form-failure';
import { paths } from '../../../config/paths';
import { isAbortError, statusOf, toApiFailure } from '../../../lib/api-errors';
import { useDeviceStat } from '../../../lib/device-stat/get-device-stat';
import { useLiveDashboard } from '../../../lib/device-stat/use-live-dashboard';
import { SEVERITY_COLOURS, useDashboardLabels } from '../../../lib/device-stat/dashboard-labels';
import { problemsOf, type DeviceProblem } from '../../../lib/device-stat/dashboard-model';
import { useServerNow } from '../../../lib/device-stat/use-server-now';
import { useDeviceEvents } from '../../../lib/device-events/get-device-events';
import { formatMoment } from '../device-format';

/** How many of the device's latest events the view lists (the events page has them all). */
const EVENTS_SHOWN = 50;

/** Open events first, then the rest, each newest first. */
function openFirst(events: readonly DeviceEvent[]): DeviceEvent[] {
  return [...events].sort(
    (a, b) =>
      Number(a.ended_at !== null) - Number(b.ended_at !== null) ||
      Date.parse(b.started_at) - Date.parse(a.started_at),
  );
}

/**
 * The device's Problems view (docs/contract.md, "Product and areas"): what the dashboard's rules say of it now — offline, a late
 * start, an overdue wash, no current template (docs/dashboard.md) — and its open and latest
 * events with their severity, since when, and whether someone acknowledged them.
 */
export function ProblemsPanel({ device }: { device: Device }) {
  const { t } = useTranslation();
  // The statistics of its type hold what the rules read (its address's zone, its last wash…).
  const stat = useDeviceStat(device.type_id);
  useLiveDashboard(true);
  const now = useServerNow(stat.data?.clockOffsetMs ?? 0);
  const entry = useMemo(() => stat.data?.devices.find((d) => d.id === device.id), [stat.data, device.id]);
  const derived = useMemo(
    () => (entry ? problemsOf(entry, now).filter((problem) => problem.kind !== 'event') : undefined),
    [entry, now],
  );
  const events = useDeviceEvents({ page: 1, perPage: EVENTS_SHOWN, filters: { device: device.id } });
  const statFailure = stat.error && !stat.data && !isAbortError(stat.error) ? toApiFailure(stat.error) : null;

  return (
    <Stack gap="lg">
      <Paper withBorder p="md" component="section" aria-labelledby="device-problems-now">
        <Title order={3} size="h5" id="device-problems-now" mb="xs">
          {t('Problems now')}
        </Title>
        {statFailure ? (
          <FormFailure failure={statFailure} fields={[]} />
        ) : !derived ? (
          stat.isPending ? (
            <Skeleton height={60} aria-label={t('Loading…')} role="status" />
          ) : (
            <Text size="sm" c="dimmed" role="status">
              {t('This device is not among the statistics yet.')}
            </Text>
          )
        ) : derived.length === 0 ? (
          <Text size="sm" c="dimmed" role="status">
            {t('Online, started on time, washed: nothing to report.')}
          </Text>
        ) : (
          <Box component="ul" m={0} pl="md">
            {derived.map((problem) => (
              <li key={problem.kind}>
                <DerivedProblem problem={problem} device={problem.device} />
              </li>
            ))}
          </Box>
        )}
      </Paper>

      <Paper withBorder p="md" component="section" aria-labelledby="device-events">
        <Group justify="space-between" mb="xs">
          <Title order={3} size="h5" id="device-events">
            {t('Events')}
          </Title>
          <Anchor
            component={Link}
            to={paths.account.deviceEventTemplates.events({ device: device.id })}
            size="sm"
          >
            {t('All events of this device')}
          </Anchor>
        </Group>
        <DeviceEventsTable events={events.data?.data} isPending={events.isPending} error={events.error} />
      </Paper>
    </Stack>
  );
}

function DerivedProblem({ problem, device }: { problem: DeviceProblem; device: DashboardDevice }) {
  const { t } = useTranslation();
  const labels = useDashboardLabels();
  let detail: string;
  switch (problem.kind) {
    case 'offline':
      detail = device.last_online.last_utc
        ? t('Last online {{moment}}.', { moment: formatMoment(device.last_online.last_utc) })
        : t('It has never been online.');
      break;
    case 'workStartedSlow':
      detail =
        device.work_start.start && problem.since !== null
          ? t('The shift starts at {{shift}}; work started at {{start}}.', {
              shift: device.shift_start ?? '—',
              start: device.work_start.start,
            })
          : t('The shift starts at {{shift}}; work has not started yet.', {
              shift: device.shift_start ?? '—',
            });
      break;
    case 'washOutdated':
      detail = device.last_wash_at
        ? t('Last washed {{moment}}; it should be every {{hours}} h.', {
            moment: formatMoment(device.last_wash_at),
            hours: device.wash_interval_hours ?? '—',
          })
        : t('It has never completed a wash.');
      break;
    default:
      detail = t('It has no current template: its current is not checked.');
  }
  return (
    <Text size="sm">
      <Text span fw={600}>
        {labels.problem[problem.kind]}
      </Text>
      {problem.since !== null && (
        <Text span c="dimmed">
          {' '}
          ({t('since {{moment}}', { moment: formatMoment(new Date(problem.since).toISOString()) })})
        </Text>
      )}
      {' — '}
      {detail}
      {problem.kind === 'withoutNorm' && (
        <>
          {' '}
          <Anchor component={Link} to={paths.account.deviceEventTemplates.list} size="sm">
            {t('Current templates')}
          </Anchor>
        </>
      )}
    </Text>
  );
}

function DeviceEventsTable({
  events,
  isPending,
  error,
}: {
  events: DeviceEvent[] | undefined;
  isPending: boolean;
  error: unknown;
}) {
  const { t } = useTranslation();
  const labels = useDashboardLabels();
  const sorted = useMemo(() => (events ? openFirst(events) : []), [events]);
  if (statusOf(error) === 403) {
    return (
      <Text size="sm" c="dimmed" role="status">
        {t('Device events are not available to you.')}
      </Text>
    );
  }
  if (error && !events && !isAbortError(error))
    return <FormFailure failure={toApiFailure(error)} fields={[]} />;
  if (isPending) return <Skeleton height={80} aria-label={t('Loading…')} role="status" />;
  if (sorted.length === 0) {
    return (
      <Text size="sm" c="dimmed" role="status">
        {t('No events yet.')}
      </Text>
    );
  }
  return (
    <Table.ScrollContainer minWidth={640}>
      <Table striped aria-labelledby="device-events">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('Severity')}</Table.Th>
            <Table.Th>{t('Event')}</Table.Th>
            <Table.Th>{t('Since')}</Table.Th>
            <Table.Th>{t('Ended')}</Table.Th>
            <Table.Th>{t('Acknowledgement')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {sorted.map((event) => (
            <Table.Tr key={event.id}>
              <Table.Td>
                <Group gap={6} wrap="nowrap">
                  <Box
                    component="span"
                    aria-hidden="true"
                    w={10}
                    h={10}
                    style={{
                      borderRadius: '50%',
                      background: SEVERITY_COLOURS[event.severity],
                      flex: 'none',
                    }}
                  />
                  <span>{labels.severity[event.severity]}</span>
                </Group>
              </Table.Td>
              <Table.Td>
                <Anchor component={Link} to={paths.account.deviceEventTemplates.event(event.id)} fz="sm">
                  {event.title}
                </Anchor>
              </Table.Td>
              <Table.Td>{formatMoment(event.started_at)}</Table.Td>
              <Table.Td>
                {event.ended_at ? (
                  formatMoment(event.ended_at)
                ) : (
                  <Badge color="red" variant="light" tt="none">
                    {t('Open')}
                  </Badge>
                )}
              </Table.Td>
              <Table.Td>
                {event.acknowledged
                  ? event.acknowledged.by
                    ? t('{{name}}, {{moment}}', {
                        name: event.acknowledged.by.name,
                        moment: formatMoment(event.acknowledged.at),
                      })
                    : formatMoment(event.acknowledged.at)
                  : t('Not acknowledged')}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
