import { Button, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { paths } from '../../config/paths';

/** `/account/no_access`: signed in, but the access role holds no module (docs/contract.md, "States and transitions"). */
export function NoAccessPage() {
  const { t } = useTranslation();
  return (
    <Stack maw={560} gap="md">
      <Text>
        {t(
          'Your account has no access to any section yet. Ask an administrator of your organisation to give you an access role.',
        )}
      </Text>
      <Button component={Link} to={paths.auth.logout} variant="default" w="fit-content">
        {t('Log out')}
      </Button>
    </Stack>
  );
}
