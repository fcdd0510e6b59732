import { Anchor, Paper, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { paths } from '../../../config/paths';
import { useAddresses } from '../api/get-addresses';
import { MissingRecord } from '../components/missing-record';
import { parseId } from '../../../lib/parse-id';
import { RoomForm } from '../components/room-form';

/** `/account/addresses/room/add[?address_id=]`: a new room, its address preselected when given. */
export function RoomAddPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const addresses = useAddresses();
  const wanted = parseId(useSearchParams()[0].get('address_id'));
  // Only an address the user can choose is preselected.
  const addressId = addresses.some((address) => address.id === wanted) ? wanted : null;
  const back = addressId === null ? paths.account.addresses.list : paths.account.addresses.detail(addressId);

  if (addresses.length === 0)
    return (
      <MissingRecord
        message={t('A room belongs to an address: add an address first.')}
        back={paths.account.addresses.add}
        backLabel={t('Add address')}
      />
    );
  return (
    <Stack gap="md" maw={760}>
      <Anchor component={Link} to={back} w="fit-content">
        {addressId === null ? t('← All addresses') : t('← Back to the address')}
      </Anchor>
      <Paper withBorder p="md" radius="md">
        <RoomForm
          addressId={addressId}
          onSaved={(room) => void navigate(paths.account.addresses.room(room.id), { replace: true })}
        />
      </Paper>
    </Stack>
  );
}
