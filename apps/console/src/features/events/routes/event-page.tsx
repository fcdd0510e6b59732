import type { Device, DeviceEvent, DeviceEventTemplate } from '@kontrol/contracts';
import { Anchor, Badge, Divider, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { DetailState } from '../../../components/detail-state';
import { ConfirmDeleteButton } from '../../../components/confirm-delete';
import { paths } from '../../../config/paths';
import { formatDateTime, formatNumber } from '../../../lib/format';
import { useCurrentUser } from '../../../lib/auth/use-current-user';
import { useReferenceList } from '../../../lib/reference-data/use-reference-data';
import { useDeleteDeviceEvent } from '../api/delete-device-event';
import { useDeviceEvent } from '../api/get-device-event';
import { AcknowledgementPanel } from '../components/acknowledgement-panel';
import { ManualEventEditor } from '../components/manual-event-editor';
import { SeverityMark } from '../components/severity-mark';
import { useEventLabels } from '../event-labels';

/** A route id of digits only, as a number; anything else is no record. */
function parseId(value: string | undefined): number | null {
  return value && /^\d{1,10}$/.test(value) && Number(value) > 0 ? Number(value) : null;
}

/** How long an event lasted (or has lasted so far), in hours and minutes. */
function useDuration() {
  const { t } = useTranslation();
  return (event: DeviceEvent) => {
    const end = event.ended_at ? Date.parse(event.ended_at) : Date.now();
    const minutes = Math.max(0, Math.round((end - Date.parse(event.started_at)) / 60_000));
    return minutes >= 60
      ? t('{{hours}} h {{minutes}} min', { hours: Math.floor(minutes / 60), minutes: minutes % 60 })
      : t('{{minutes}} min', { minutes });
  };
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <Text component="dt" size="sm" c="dimmed">
        {label}
      </Text>
      <Text component="dd" size="sm" m={0}>
        {children}
      </Text>
    </div>
  );
}

/**
 * `/account/device_event_templates/events/{id}`: everything about one event — its device and
 * template, when it started and ended, the reading that opened it, who acknowledged it — with
 * acknowledging (or taking it back) with a comment, editing and closing a manual event, and
 * deleting it.
 */
export function EventPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const user = useCurrentUser();
  const labels = useEventLabels();
  const duration = useDuration();
  const id = parseId(useParams().id);
  const { data: event, isPending, error } = useDeviceEvent(id ?? 0);
  const devices = useReferenceList<Device>(user, 'devices');
  const templates = useReferenceList<DeviceEventTemplate>(user, 'deviceEventTemplates');
  const remove = useDeleteDeviceEvent(id ?? 0);

  const back = (
    <Anchor component={Link} to={paths.account.deviceEventTemplates.events()} size="sm">
      ← {t('All events')}
    </Anchor>
  );
  if (id === null || !event) {
    return (
      <DetailState
        invalidId={id === null}
        query={{ isPending, error }}
        notFound={t('Event not found')}
        back={back}
      />
    );
  }

  const device = devices.find((one) => one.id === event.device_id);
  const template = templates.find((one) => one.id === event.template_id);
  const unit =
    event.kind === 'current_above' || event.kind === 'current_below'
      ? ` ${t('A')}`
      : event.kind === 'no_data' || event.kind === 'state_too_long'
        ? ` ${t('min')}`
        : '';

  return (
    <Stack gap="md">
      {back}
      <Group gap="sm" align="center">
        <Title order={2}>{event.title}</Title>
        {event.ended_at === null ? (
          <Badge color="red" variant="light">
            {t('Open')}
          </Badge>
        ) : (
          <Badge color="gray" variant="light">
            {t('Over')}
          </Badge>
        )}
      </Group>
      <SimpleGrid component="dl" cols={{ base: 1, sm: 2, lg: 3 }} spacing="md" m={0}>
        <Fact label={t('Device')}>
          <Anchor component={Link} to={paths.account.devices.detail(event.device_id)} fz="sm">
            {device?.name ?? t('Device #{{id}}', { id: event.device_id })}
          </Anchor>
        </Fact>
        <Fact label={t('Template')}>
          {event.template_id === null ? (
            t('None: written by hand')
          ) : (
            <Anchor
              component={Link}
              to={paths.account.deviceEventTemplates.detail(event.template_id)}
              fz="sm"
            >
              {template?.name ?? t('Template #{{id}}', { id: event.template_id })}
            </Anchor>
          )}
        </Fact>
        <Fact label={t('Kind')}>
          {labels.kind[event.kind]}
          {event.rule_key && ` (${t('rule {{key}}', { key: event.rule_key })})`}
        </Fact>
        <Fact label={t('Severity')}>
          <SeverityMark severity={event.severity} />
        </Fact>
        <Fact label={t('Started')}>{formatDateTime(event.started_at)}</Fact>
        <Fact label={t('Ended')}>
          {event.ended_at === null ? t('Still open') : formatDateTime(event.ended_at)}
        </Fact>
        <Fact label={t('Duration')}>{duration(event)}</Fact>
        <Fact label={t('Value')}>
          {event.value === null ? '—' : `${formatNumber(event.value, { maximumFractionDigits: 2 })}${unit}`}
        </Fact>
        <Fact label={t('Written by')}>
          {event.created_by?.name ?? (event.kind === 'manual' ? '—' : t('Kontrol, by a rule'))}
        </Fact>
      </SimpleGrid>
      {event.description && (
        <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
          {event.description}
        </Text>
      )}
      <AcknowledgementPanel event={event} />
      {event.kind === 'manual' && <ManualEventEditor key={event.id} event={event} />}
      <Divider />
      {event.kind !== 'manual' && event.ended_at === null ? (
        // The server keeps a rule's open event: the rule closes it, and then it may go.
        <Text size="sm" c="dimmed">
          {t('An open event of a rule can be deleted once its rule has closed it.')}
        </Text>
      ) : (
        <div>
          <ConfirmDeleteButton
            label={t('Delete the event')}
            title={t('Delete the event «{{title}}»?', { title: event.title })}
            onConfirm={async () => {
              await remove.mutateAsync();
              await navigate(paths.account.deviceEventTemplates.events(), { replace: true });
            }}
          />
        </div>
      )}
    </Stack>
  );
}
