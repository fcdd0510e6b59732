import { ADDRESS_IMAGE_MAX_BYTES, ADDRESS_IMAGE_TYPES } from '@kontrol/contracts';
import { Alert, Button, FileButton, Group, Image, Input, Progress, Stack, Text } from '@mantine/core';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormFailure } from '../../../components/form-failure';
import { toApiFailure } from '../../../lib/api-errors';
import { formatNumber } from '../../../lib/format';
import { useUploadRecipeImage, type RecipeImage } from '../api/upload-recipe-image';

const ACCEPT = ADDRESS_IMAGE_TYPES.join(',');
const MAX_MEGABYTES = ADDRESS_IMAGE_MAX_BYTES / (1024 * 1024);

/**
 * The recipe's image: the current one (or a placeholder), a chosen file checked here (type and
 * size, the limits the server also applies), sent at once (`POST /api/recipes/image`) with its
 * progress, then shown; removing it only clears the field. Either takes effect when the recipe is
 * saved.
 */
export function RecipeImageField({
  imageUrl,
  recipeName,
  error,
  onChange,
}: {
  /** Where the image in the form is shown, or null for none. */
  imageUrl: string | null;
  recipeName: string;
  /** The server's message on `image`. */
  error?: string;
  onChange: (image: RecipeImage | null) => void;
}) {
  const { t } = useTranslation();
  const labelId = useId();
  const [problem, setProblem] = useState<string | null>(null);
  const [progress, setProgress] = useState(0);
  const upload = useUploadRecipeImage(setProgress);

  const choose = (file: File | null) => {
    upload.reset();
    setProblem(null);
    if (!file) return;
    if (!(ADDRESS_IMAGE_TYPES as readonly string[]).includes(file.type)) {
      setProblem(t('Choose a JPEG, PNG or WebP image.'));
    } else if (file.size > ADDRESS_IMAGE_MAX_BYTES) {
      setProblem(t('The image is larger than {{size}} MB.', { size: formatNumber(MAX_MEGABYTES) }));
    } else {
      setProgress(0);
      upload.mutate(file, { onSuccess: (image) => onChange(image) });
    }
  };

  return (
    <Stack gap="xs" role="group" aria-labelledby={labelId}>
      <Input.Label id={labelId} component="span">
        {t('Image')}
      </Input.Label>
      {imageUrl ? (
        <Image
          src={imageUrl}
          alt={t('Image of {{name}}', { name: recipeName || t('the recipe') })}
          radius="md"
          maw={320}
          mah={200}
          fit="contain"
          style={{ alignSelf: 'flex-start' }}
        />
      ) : (
        <Text size="sm" c="dimmed">
          {t('No image yet.')}
        </Text>
      )}
      <Text size="xs" c="dimmed">
        {t('JPEG, PNG or WebP, up to {{size}} MB.', { size: formatNumber(MAX_MEGABYTES) })}
      </Text>
      {problem && (
        <Alert color="red" role="alert">
          {problem}
        </Alert>
      )}
      {error && (
        <Text size="sm" c="red">
          {error}
        </Text>
      )}
      {upload.isError && <FormFailure failure={toApiFailure(upload.error)} fields={[]} />}
      {upload.isPending && (
        <Progress value={Math.round(progress * 100)} aria-label={t('Upload progress')} animated />
      )}
      <Group gap="sm">
        <FileButton onChange={choose} accept={ACCEPT} inputProps={{ 'aria-label': t('Choose an image') }}>
          {(props) => (
            <Button variant="default" loading={upload.isPending} {...props}>
              {imageUrl ? t('Replace the image') : t('Choose an image')}
            </Button>
          )}
        </FileButton>
        {imageUrl && (
          <Button variant="subtle" color="red" onClick={() => onChange(null)} disabled={upload.isPending}>
            {t('Remove image')}
          </Button>
        )}
      </Group>
    </Stack>
  );
}
