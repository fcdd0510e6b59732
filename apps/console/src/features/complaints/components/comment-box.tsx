import {
  COMPLAINT_COMMENT_MAX_LENGTH,
  type ComplaintEvent,
  type ComplaintEventBody,
} from '@kontrol/contracts';
import { Button, Group, Stack, Textarea } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { FormFailure } from '../../../components/form-failure';
import { useApiForm } from '../../../lib/use-api-form';
import { photoErrorsOf, usePhotoUploads } from '../use-photo-uploads';
import { PhotoPicker } from './photo-picker';

/**
 * A comment on a complaint: text and photos; Ctrl+Enter (⌘+Enter on a Mac) sends, as the button
 * does. The box empties once the comment is in the timeline.
 */
export function CommentBox({ submit }: { submit: (body: ComplaintEventBody) => Promise<ComplaintEvent[]> }) {
  const { t } = useTranslation();
  const uploads = usePhotoUploads();
  const { form, onSubmit, submitting, failure, fields } = useApiForm<{ text: string }, ComplaintEvent[]>({
    initialValues: { text: '' },
    submit: (values) => submit({ text: values.text, photos: uploads.photos }),
    onSuccess: (_, current) => {
      current.reset();
      uploads.reset();
    },
  });

  return (
    <form onSubmit={onSubmit} noValidate aria-label={t('New comment')}>
      <Stack gap="sm">
        <FormFailure
          failure={failure}
          fields={[...fields, ...Object.keys(form.errors).filter((key) => key.startsWith('photos'))]}
        />
        <Textarea
          label={t('Comment')}
          description={t('Ctrl+Enter sends.')}
          autosize
          minRows={3}
          maxRows={10}
          maxLength={COMPLAINT_COMMENT_MAX_LENGTH}
          {...form.getInputProps('text')}
          onKeyDown={(event) => {
            if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
              event.preventDefault();
              if (!submitting && !uploads.busy) onSubmit();
            }
          }}
        />
        <PhotoPicker uploads={uploads} error={photoErrorsOf(form.errors)} compact />
        <Group>
          <Button type="submit" loading={submitting} disabled={uploads.busy}>
            {t('Send comment')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
