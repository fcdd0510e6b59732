import type { ComplaintPhoto } from '@kontrol/contracts';
import { Anchor, Image, SimpleGrid } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** Photos of a complaint or a comment as thumbnails, each opening the full photo in a new tab. */
export function PhotoGallery({ photos, label }: { photos: readonly ComplaintPhoto[]; label: string }) {
  const { t } = useTranslation();
  if (photos.length === 0) return null;
  return (
    <SimpleGrid
      cols={{ base: 3, sm: 4, md: 6 }}
      spacing="xs"
      component="ul"
      aria-label={label}
      m={0}
      p={0}
      style={{ listStyle: 'none' }}
    >
      {photos.map((photo, index) => (
        <li key={photo.photo}>
          <Anchor href={photo.url} target="_blank" rel="noopener noreferrer" display="block">
            <Image
              src={photo.url}
              alt={t('Photo {{number}} of {{total}}', { number: index + 1, total: photos.length })}
              h={88}
              w="100%"
              fit="cover"
              radius="sm"
              loading="lazy"
            />
          </Anchor>
        </li>
      ))}
    </SimpleGrid>
  );
}
