import { EVENT_COMMENT_MAX_LENGTH, type DeviceEvent } from '@kontrol/contracts';
import { Button, Group, Modal, Stack, Text, Textarea } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormFailure } from '../../../components/form-failure';
import { isAbortError, toApiFailure, type ApiFailure } from '../../../lib/api-errors';
import { useUpdateDeviceEvent } from '../api/update-device-event';

/**
 * Acknowledges an event from a list, with an optional comment (PUT /devices/events/{id}
 * `{acknowledged: true, comment}`). A Mantine modal: focus trapped, Escape cancels.
 */
export function AcknowledgeModal({
  event,
  deviceName,
  onClose,
}: {
  /** The event to acknowledge; none closes the dialog. */
  event: DeviceEvent | null;
  deviceName: string;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const update = useUpdateDeviceEvent();
  const [comment, setComment] = useState('');
  const [failure, setFailure] = useState<ApiFailure | null>(null);
  const close = () => {
    if (update.isPending) return;
    setComment('');
    setFailure(null);
    onClose();
  };
  const confirm = async () => {
    if (!event) return;
    setFailure(null);
    try {
      await update.mutateAsync({ id: event.id, body: { acknowledged: true, comment: comment || null } });
      setComment('');
      onClose();
    } catch (error) {
      if (!isAbortError(error)) setFailure(toApiFailure(error));
    }
  };
  return (
    <Modal
      opened={event !== null}
      onClose={close}
      title={t('Acknowledge the event')}
      centered
      closeButtonProps={{ 'aria-label': t('Close') }}
    >
      <form
        onSubmit={(submitted) => {
          submitted.preventDefault();
          void confirm();
        }}
        noValidate
      >
        <Stack gap="md">
          <FormFailure failure={failure} fields={['comment']} />
          {event && (
            <Text size="sm">
              {deviceName}: {event.title}
            </Text>
          )}
          <Textarea
            label={t('Comment')}
            description={t('Optional: what was done, who looked.')}
            autosize
            minRows={2}
            maxLength={EVENT_COMMENT_MAX_LENGTH}
            value={comment}
            onChange={(changed) => setComment(changed.currentTarget.value)}
            error={failure?.kind === 'validation' ? failure.errors.comment?.join(' ') : undefined}
            data-autofocus
          />
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={close} disabled={update.isPending}>
              {t('Cancel')}
            </Button>
            <Button type="submit" loading={update.isPending}>
              {t('Acknowledge')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
