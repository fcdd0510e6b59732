import { COMPLAINT_MAX_PHOTOS } from '@kontrol/contracts';
import {
  Alert,
  Box,
  Button,
  CloseButton,
  FileButton,
  Group,
  Image,
  Input,
  List,
  Paper,
  Progress,
  SimpleGrid,
  Stack,
  Text,
} from '@mantine/core';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { formatNumber } from '../../../lib/format';
import { PHOTO_MAX_BYTES, PHOTO_TYPES, type PhotoUploads } from '../use-photo-uploads';

const ACCEPT = PHOTO_TYPES.join(',');

/**
 * Photos being attached to a complaint or a comment: a button to choose files, each file's upload
 * progress, then its preview with a button to remove it before sending; the reasons a file was
 * refused (here or by the server). The uploads themselves are {@link usePhotoUploads}'.
 */
export function PhotoPicker({
  uploads,
  error,
  compact = false,
}: {
  uploads: PhotoUploads;
  /** The server's message on `photos` from the last submit. */
  error?: string;
  /** A small button and no hint, for the comment box. */
  compact?: boolean;
}) {
  const { t } = useTranslation();
  const labelId = useId();
  const full = uploads.items.filter((item) => item.state !== 'failed').length >= COMPLAINT_MAX_PHOTOS;

  return (
    <Stack gap="xs" role="group" aria-labelledby={labelId}>
      <Input.Label id={labelId} component="span">
        {t('Photos')}
      </Input.Label>
      {!compact && (
        <Text size="xs" c="dimmed">
          {t('JPEG, PNG or WebP, up to {{size}} MB each; at most {{max}}.', {
            size: formatNumber(PHOTO_MAX_BYTES / (1024 * 1024)),
            max: COMPLAINT_MAX_PHOTOS,
          })}
        </Text>
      )}
      {uploads.problems.length > 0 && (
        <Alert color="red" role="alert" p="xs">
          <List size="sm">
            {uploads.problems.map((problem) => (
              <List.Item key={problem}>{problem}</List.Item>
            ))}
          </List>
        </Alert>
      )}
      {error && (
        <Text size="sm" c="red">
          {error}
        </Text>
      )}
      {uploads.items.length > 0 && (
        <SimpleGrid cols={{ base: 2, xs: 3, md: 4 }} spacing="xs" component="ul" m={0} p={0}>
          {uploads.items.map((item) => (
            <Paper
              key={item.key}
              component="li"
              withBorder
              p={4}
              radius="sm"
              style={{ listStyle: 'none', position: 'relative' }}
            >
              <Box h={96} display="flex" style={{ alignItems: 'center', justifyContent: 'center' }}>
                {item.state === 'done' && item.photo ? (
                  <Image
                    src={item.photo.url}
                    alt={t('Photo {{name}}', { name: item.fileName })}
                    h={96}
                    w="100%"
                    fit="cover"
                    radius="xs"
                  />
                ) : item.state === 'uploading' ? (
                  <Progress
                    w="90%"
                    value={Math.round(item.progress * 100)}
                    animated
                    aria-label={t('Uploading {{name}}', { name: item.fileName })}
                  />
                ) : (
                  <Text size="xs" c="red" ta="center" role="alert">
                    {item.problem}
                  </Text>
                )}
              </Box>
              <Group gap={4} wrap="nowrap" justify="space-between" mt={4}>
                <Text size="xs" truncate title={item.fileName}>
                  {item.fileName}
                </Text>
                <CloseButton
                  size="sm"
                  aria-label={t('Remove photo {{name}}', { name: item.fileName })}
                  onClick={() => uploads.remove(item.key)}
                />
              </Group>
            </Paper>
          ))}
        </SimpleGrid>
      )}
      <Group>
        <FileButton
          onChange={(files) => uploads.add(files)}
          accept={ACCEPT}
          multiple
          disabled={full}
          inputProps={{ 'aria-label': t('Attach photos') }}
        >
          {(props) => (
            <Button variant="default" size={compact ? 'xs' : 'sm'} disabled={full} {...props}>
              {t('Attach photos')}
            </Button>
          )}
        </FileButton>
      </Group>
    </Stack>
  );
}
