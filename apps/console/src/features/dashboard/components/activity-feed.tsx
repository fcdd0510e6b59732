import type { DeviceEvent } from '@kontrol/contracts';
import { Anchor, Box, Group, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import { memo, useId, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { FormFailure } from '../../../components/form-failure';
import { paths } from '../../../config/paths';
import { isAbortError, statusOf, toApiFailure } from '../../../lib/api-errors';
import { useDeviceEvents } from '../../../lib/device-events/get-device-events';
import { SEVERITY_COLOURS, useDashboardLabels } from '../../../lib/device-stat/dashboard-labels';
import { formatMoment } from '../dashboard-format';
import classes from './dashboard.module.css';

/** How many lines the feed shows, and how many events it reads for them. */
const FEED_LENGTH = 20;

/**
 * One line of the activity feed, newest first. Each source of activity adds its kinds here and a
 * hook that reads them: device events now; complaints and recipe deployments join the same way
 * when their issues land (a `complaint_*` or `deployment_*` kind, and a source in
 * {@link useActivity}).
 */
export type ActivityItem =
  | { kind: 'event_opened'; key: string; at: number; event: DeviceEvent }
  | { kind: 'event_closed'; key: string; at: number; event: DeviceEvent }
  | { kind: 'event_acknowledged'; key: string; at: number; event: DeviceEvent };

interface ActivitySource {
  items: ActivityItem[];
  isPending: boolean;
  error: unknown;
}

/** The latest device events (GET /api/devices/events?page=1, newest first) as feed lines. */
export function eventActivity(events: readonly DeviceEvent[]): ActivityItem[] {
  const items: ActivityItem[] = [];
  for (const event of events) {
    items.push({ kind: 'event_opened', key: `e${event.id}:open`, at: Date.parse(event.started_at), event });
    if (event.ended_at) {
      items.push({ kind: 'event_closed', key: `e${event.id}:close`, at: Date.parse(event.ended_at), event });
    }
    if (event.acknowledged) {
      items.push({
        kind: 'event_acknowledged',
        key: `e${event.id}:ack`,
        at: Date.parse(event.acknowledged.at),
        event,
      });
    }
  }
  return items;
}

/** The latest events of the devices of `type` (all devices when null). */
function useEventActivitySource(type: number | null): ActivitySource {
  const events = useDeviceEvents({
    page: 1,
    perPage: FEED_LENGTH,
    ...(type === null ? {} : { filters: { deviceType: type } }),
  });
  const items = useMemo(() => eventActivity(events.data?.data ?? []), [events.data]);
  return { items, isPending: events.isPending, error: events.error };
}

/** Every source's lines, newest first, of the devices of `type` (all devices when null). */
function useActivity(type: number | null): ActivitySource {
  const sources = [useEventActivitySource(type)];
  const items = sources
    .flatMap((source) => source.items)
    .sort((a, b) => b.at - a.at)
    .slice(0, FEED_LENGTH);
  return {
    items,
    isPending: sources.some((source) => source.isPending),
    error: sources.find((source) => source.error)?.error ?? null,
  };
}

/**
 * The latest activity of the organisation, or of the devices of the dashboard's device type:
 * device events opened, closed and acknowledged, each naming its device.
 */
export const ActivityFeed = memo(function ActivityFeed({ type }: { type: number | null }) {
  const { t } = useTranslation();
  const headingId = useId();
  const { items, isPending, error } = useActivity(type);
  const forbidden = statusOf(error) === 403;
  const failure = error && !forbidden && !isAbortError(error) ? toApiFailure(error) : null;

  return (
    <Paper withBorder p="md" component="section" aria-labelledby={headingId} h="100%">
      <Stack gap="sm">
        <Title order={2} size="h4" id={headingId}>
          {t('Activity')}
        </Title>
        {forbidden ? (
          <Text c="dimmed" size="sm" role="status">
            {t('Device events are not available to you.')}
          </Text>
        ) : failure ? (
          <FormFailure failure={failure} fields={[]} />
        ) : isPending ? (
          <Stack gap={6} aria-hidden="true">
            {Array.from({ length: 4 }, (_, index) => (
              <Skeleton key={index} height={32} />
            ))}
          </Stack>
        ) : items.length === 0 ? (
          <Text c="dimmed" size="sm" role="status">
            {t('Nothing has happened yet.')}
          </Text>
        ) : (
          <ul className={classes.feed} aria-labelledby={headingId}>
            {items.map((item) => (
              <li key={item.key}>
                <ActivityLine item={item} />
              </li>
            ))}
          </ul>
        )}
      </Stack>
    </Paper>
  );
});

function ActivityLine({ item }: { item: ActivityItem }) {
  const { t } = useTranslation();
  const labels = useDashboardLabels();
  const { event } = item;
  const what =
    item.kind === 'event_opened'
      ? t('Event opened')
      : item.kind === 'event_closed'
        ? t('Event closed')
        : event.acknowledged?.by
          ? t('Acknowledged by {{name}}', { name: event.acknowledged.by.name })
          : t('Acknowledged');
  return (
    <Group gap="sm" py={6} wrap="nowrap" align="flex-start">
      <Text size="xs" c="dimmed" w={120} style={{ flex: 'none' }} component="span">
        <time dateTime={new Date(item.at).toISOString()}>{formatMoment(item.at)}</time>
      </Text>
      <Box style={{ minWidth: 0 }}>
        <Text size="sm" component="span" display="block">
          {what}:{' '}
          <Anchor component={Link} to={paths.account.deviceEventTemplates.event(event.id)} fz="sm">
            {event.title}
          </Anchor>
        </Text>
        <Group gap={6} wrap="nowrap">
          <Box
            component="span"
            aria-hidden="true"
            w={8}
            h={8}
            style={{ borderRadius: '50%', background: SEVERITY_COLOURS[event.severity], flex: 'none' }}
          />
          <Text size="xs" c="dimmed" component="span">
            {labels.severity[event.severity]}
            {' · '}
            <Anchor component={Link} to={paths.account.devices.detail(event.device_id, 'problems')} fz="xs">
              {event.device_name}
            </Anchor>
          </Text>
        </Group>
      </Box>
    </Group>
  );
}
