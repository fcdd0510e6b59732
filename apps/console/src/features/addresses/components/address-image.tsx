import { ADDRESS_IMAGE_MAX_BYTES, ADDRESS_IMAGE_TYPES, type Address } from '@kontrol/contracts';
import { Alert, Button, FileButton, Group, Image, Progress, Stack, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDeleteButton } from '../../../components/confirm-delete';
import { FormFailure } from '../../../components/form-failure';
import { toApiFailure } from '../../../lib/api-errors';
import { formatNumber } from '../../../lib/format';
import { useDeleteAddressImage } from '../api/delete-address-image';
import { useUploadAddressImage } from '../api/upload-address-image';

const ACCEPT = ADDRESS_IMAGE_TYPES.join(',');
const MAX_MEGABYTES = ADDRESS_IMAGE_MAX_BYTES / (1024 * 1024);

/**
 * An address's image: the current one, a chosen file checked here (type and size, the limits the
 * server also applies) and previewed before it is sent, upload progress, and removal.
 */
export function AddressImage({ address }: { address: Address }) {
  const { t } = useTranslation();
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [progress, setProgress] = useState(0);
  const upload = useUploadAddressImage(address.id, setProgress);
  const remove = useDeleteAddressImage(address.id);

  useEffect(() => {
    if (!file) {
      setPreview(null);
      return;
    }
    const url = URL.createObjectURL(file);
    setPreview(url);
    return () => URL.revokeObjectURL(url);
  }, [file]);

  const choose = (chosen: File | null) => {
    upload.reset();
    setFile(null);
    setProblem(null);
    if (!chosen) return;
    if (!(ADDRESS_IMAGE_TYPES as readonly string[]).includes(chosen.type)) {
      setProblem(t('Choose a JPEG, PNG or WebP image.'));
    } else if (chosen.size > ADDRESS_IMAGE_MAX_BYTES) {
      setProblem(t('The image is larger than {{size}} MB.', { size: formatNumber(MAX_MEGABYTES) }));
    } else {
      setFile(chosen);
    }
  };

  const send = () => {
    if (!file) return;
    setProgress(0);
    upload.mutate(file, { onSuccess: () => setFile(null) });
  };

  // `image_url` changes with every upload (`?v=`), so the browser never shows a replaced image.
  const shown = preview ?? address.image_url;
  return (
    <Stack gap="sm">
      {shown ? (
        <Image
          src={shown}
          alt={preview ? t('Preview of the chosen image') : t('Image of {{name}}', { name: address.name })}
          radius="md"
          maw={360}
          mah={240}
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
      {upload.isError && <FormFailure failure={toApiFailure(upload.error)} fields={[]} />}
      {upload.isSuccess && (
        <Alert color="green" role="status">
          {t('The image is saved.')}
        </Alert>
      )}
      {upload.isPending && (
        <Progress value={Math.round(progress * 100)} aria-label={t('Upload progress')} animated />
      )}
      <Group gap="sm">
        <FileButton onChange={choose} accept={ACCEPT} inputProps={{ 'aria-label': t('Choose an image') }}>
          {(props) => (
            <Button variant="default" disabled={upload.isPending} {...props}>
              {t('Choose an image')}
            </Button>
          )}
        </FileButton>
        {file && (
          <>
            <Button onClick={send} loading={upload.isPending}>
              {t('Upload')}
            </Button>
            <Button variant="subtle" onClick={() => choose(null)} disabled={upload.isPending}>
              {t('Cancel')}
            </Button>
          </>
        )}
      </Group>
      {address.image_url && !file && (
        <div>
          <ConfirmDeleteButton
            label={t('Remove image')}
            title={t('Remove the image of «{{name}}»?', { name: address.name })}
            onConfirm={() => remove.mutateAsync()}
          />
        </div>
      )}
    </Stack>
  );
}
