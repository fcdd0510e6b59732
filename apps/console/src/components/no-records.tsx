import { Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** What an empty list shows (docs/contract.md, "Validation and errors shown"): "No records found", in the interface language. */
export function NoRecords() {
  const { t } = useTranslation();
  return (
    <Text c="dimmed" ta="center" py="xl" role="status">
      {t('No records found')}
    </Text>
  );
}
