import type { ComplaintEvent } from '@kontrol/contracts';
import { Group, Paper, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { NoRecords } from '../../../components/no-records';
import { formatDateTime } from '../../../lib/format';
import { useComplaintLabels } from '../complaint-labels';
import { PhotoGallery } from './photo-gallery';

/**
 * A complaint's history, oldest first: its filing, the comments with their photos, and every change
 * of status, assignee and priority, each with who did it and when (in the interface language).
 */
export function ComplaintTimeline({ events }: { events: readonly ComplaintEvent[] }) {
  const { t } = useTranslation();
  if (events.length === 0) return <NoRecords />;
  return (
    <Stack component="ol" gap="sm" m={0} p={0} aria-label={t('History')} style={{ listStyle: 'none' }}>
      {events.map((event) => (
        <Paper
          key={event.id}
          component="li"
          withBorder
          p="sm"
          radius="md"
          bg={event.kind === 'comment' ? undefined : 'var(--mantine-color-default-hover)'}
        >
          <Group justify="space-between" gap="xs" wrap="wrap">
            <Text size="sm" fw={600}>
              {event.author?.name ?? t('Unknown author')}
            </Text>
            <Text size="xs" c="dimmed" component="time" dateTime={event.created_at}>
              {formatDateTime(event.created_at)}
            </Text>
          </Group>
          <TimelineEntry event={event} />
        </Paper>
      ))}
    </Stack>
  );
}

function TimelineEntry({ event }: { event: ComplaintEvent }) {
  const { t } = useTranslation();
  const labels = useComplaintLabels();
  switch (event.kind) {
    case 'created':
      return <Text size="sm">{t('Filed the complaint')}</Text>;
    case 'comment':
      return (
        <Stack gap="xs" mt={4}>
          {event.text && (
            <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
              {event.text}
            </Text>
          )}
          <PhotoGallery photos={event.photos} label={t('Photos of the comment')} />
        </Stack>
      );
    case 'status':
      return (
        <Text size="sm">
          {event.from_status && event.to_status
            ? t('Changed the status: {{from}} → {{to}}', {
                from: labels.status[event.from_status],
                to: labels.status[event.to_status],
              })
            : t('Changed the status to {{to}}', {
                to: event.to_status ? labels.status[event.to_status] : '—',
              })}
        </Text>
      );
    case 'assignee':
      return (
        <Text size="sm">
          {event.assignee
            ? t('Assigned the complaint to {{name}}', { name: event.assignee.name })
            : t('Removed the assignee')}
        </Text>
      );
    case 'priority':
      return (
        <Text size="sm">
          {t('Changed the priority to {{priority}}', {
            priority: event.priority ? labels.priority[event.priority] : '—',
          })}
        </Text>
      );
  }
}
