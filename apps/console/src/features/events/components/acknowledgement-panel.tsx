import { EVENT_COMMENT_MAX_LENGTH, type DeviceEvent } from '@kontrol/contracts';
import { Button, Fieldset, Group, Stack, Text, Textarea } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormFailure } from '../../../components/form-failure';
import { formatDateTime } from '../../../lib/format';
import { isAbortError, toApiFailure, type ApiFailure } from '../../../lib/api-errors';
import { useUpdateDeviceEvent } from '../api/update-device-event';

/**
 * Acknowledging an event with a comment (PUT `{acknowledged: true, comment}`), or taking the
 * acknowledgement back (`{acknowledged: false}`); who acknowledged it, when, and what they wrote.
 */
export function AcknowledgementPanel({ event }: { event: DeviceEvent }) {
  const { t } = useTranslation();
  const update = useUpdateDeviceEvent();
  const [comment, setComment] = useState('');
  const [failure, setFailure] = useState<ApiFailure | null>(null);
  const acknowledged = event.acknowledged;

  const send = async (body: { acknowledged: boolean; comment?: string | null }) => {
    setFailure(null);
    try {
      await update.mutateAsync({ id: event.id, body });
      setComment('');
    } catch (error) {
      if (!isAbortError(error)) setFailure(toApiFailure(error));
    }
  };

  return (
    <Fieldset legend={t('Acknowledgement')}>
      <Stack gap="sm">
        <FormFailure failure={failure} fields={['comment']} />
        {acknowledged ? (
          <>
            <Text size="sm" role="status">
              {t('Acknowledged by {{name}} on {{date}}.', {
                name: acknowledged.by?.name ?? t('someone'),
                date: formatDateTime(acknowledged.at),
              })}
            </Text>
            {acknowledged.comment && (
              <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
                {t('Comment')}: {acknowledged.comment}
              </Text>
            )}
            <Group>
              <Button
                variant="default"
                loading={update.isPending}
                onClick={() => void send({ acknowledged: false })}
              >
                {t('Take back the acknowledgement')}
              </Button>
            </Group>
          </>
        ) : (
          <form
            onSubmit={(submitted) => {
              submitted.preventDefault();
              void send({ acknowledged: true, comment: comment || null });
            }}
            noValidate
          >
            <Stack gap="sm">
              <Text size="sm">{t('Nobody has acknowledged this event yet.')}</Text>
              <Textarea
                label={t('Comment')}
                description={t('Optional: what was done, who looked.')}
                autosize
                minRows={2}
                maxLength={EVENT_COMMENT_MAX_LENGTH}
                value={comment}
                onChange={(changed) => setComment(changed.currentTarget.value)}
                error={failure?.kind === 'validation' ? failure.errors.comment?.join(' ') : undefined}
              />
              <Group>
                <Button type="submit" loading={update.isPending}>
                  {t('Acknowledge')}
                </Button>
              </Group>
            </Stack>
          </form>
        )}
      </Stack>
    </Fieldset>
  );
}
