import { Anchor, Paper, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { paths } from '../../../config/paths';
import { AddressForm } from '../components/address-form';

/** `/account/addresses/add`: a new address; once saved, its page (image, rooms) opens. */
export function AddressAddPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Stack gap="md" maw={760}>
      <Anchor component={Link} to={paths.account.addresses.list} w="fit-content">
        {t('← All addresses')}
      </Anchor>
      <Paper withBorder p="md" radius="md">
        <AddressForm
          onSaved={(address) => void navigate(paths.account.addresses.detail(address.id), { replace: true })}
        />
      </Paper>
    </Stack>
  );
}
