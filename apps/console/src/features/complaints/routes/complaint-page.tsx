import { Alert, Anchor, Grid, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { DetailState } from '../../../components/detail-state';
import { PageLoader } from '../../../components/page-loader';
import { paths } from '../../../config/paths';
import { formatDateTime } from '../../../lib/format';
import { useAddComplaintEvent } from '../api/add-complaint-event';
import { useAssignees } from '../use-assignees';
import { useComplaint } from '../api/get-complaint';
import { useComplaintEvents } from '../api/get-complaint-events';
import { CommentBox } from '../components/comment-box';
import { PriorityBadge, StatusBadge } from '../components/complaint-badges';
import { ComplaintControls } from '../components/complaint-controls';
import { ComplaintSubject } from '../components/complaint-subject';
import { ComplaintTimeline } from '../components/complaint-timeline';
import { PhotoGallery } from '../components/photo-gallery';
import { parseId } from '../../../lib/parse-id';
import { useComplaintReferences } from '../use-complaint-references';

/**
 * `/account/requests/{id}`: a complaint — what, about which device or address, who filed it and
 * who handles it —, its text and photos, its history, a comment box, and the controls that move
 * it along (status, assignee, priority).
 */
export function ComplaintPage() {
  const { t } = useTranslation();
  const id = parseId(useParams().id);
  const { data: complaint, isPending, error } = useComplaint(id ?? 0);
  const events = useComplaintEvents(id ?? 0);
  const references = useComplaintReferences();
  const assignees = useAssignees();
  const addEvent = useAddComplaintEvent(id ?? 0);
  const historyId = useId();

  const back = (
    <Anchor component={Link} to={paths.account.requests.list} size="sm">
      ← {t('All complaints')}
    </Anchor>
  );
  if (id === null || !complaint) {
    return (
      <DetailState
        invalidId={id === null}
        query={{ isPending, error }}
        notFound={t('Complaint not found')}
        back={back}
      />
    );
  }

  return (
    <Stack gap="md">
      {back}
      <Stack gap="xs">
        <Title order={2} style={{ overflowWrap: 'anywhere' }}>
          {complaint.title}
        </Title>
        <Group gap="xs">
          <StatusBadge status={complaint.status} />
          <PriorityBadge priority={complaint.priority} />
        </Group>
        <ComplaintSubject complaint={complaint} references={references} />
        <Group gap="lg" wrap="wrap">
          <Text size="sm">
            <Text span c="dimmed" size="sm">
              {t('Filed by')}:{' '}
            </Text>
            {complaint.author?.name ?? t('Unknown author')},{' '}
            <time dateTime={complaint.created_at}>{formatDateTime(complaint.created_at)}</time>
          </Text>
          <Text size="sm">
            <Text span c="dimmed" size="sm">
              {t('Assignee')}:{' '}
            </Text>
            {complaint.assignee?.name ?? t('Nobody')}
          </Text>
        </Group>
      </Stack>
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, md: 8 }} order={{ base: 2, md: 1 }}>
          <Stack gap="lg">
            {(complaint.text || complaint.photos.length > 0) && (
              <Paper withBorder p="md" radius="md">
                <Stack gap="sm">
                  {complaint.text && (
                    <Text style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>{complaint.text}</Text>
                  )}
                  <PhotoGallery photos={complaint.photos} label={t('Photos of the complaint')} />
                </Stack>
              </Paper>
            )}
            <Stack gap="sm" component="section" aria-labelledby={historyId}>
              <Title order={3} size="h4" id={historyId}>
                {t('History')}
              </Title>
              {events.data ? (
                <ComplaintTimeline events={events.data} />
              ) : events.isPending ? (
                <PageLoader inline />
              ) : (
                <Alert color="red" role="alert">
                  {t('The history could not be loaded. Please try again later.')}
                </Alert>
              )}
            </Stack>
            <CommentBox submit={(body) => addEvent.mutateAsync(body)} />
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 4 }} order={{ base: 1, md: 2 }}>
          <Paper withBorder p="md" radius="md">
            <ComplaintControls
              complaint={complaint}
              assignees={assignees}
              submit={(body) => addEvent.mutateAsync(body)}
            />
          </Paper>
        </Grid.Col>
      </Grid>
    </Stack>
  );
}
