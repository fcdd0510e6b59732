import type { Address } from '@kontrol/contracts';
import { Anchor, Badge, Button, Group, List, Stack, Text } from '@mantine/core';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { ConfirmDeleteButton } from '../../../components/confirm-delete';
import { NoRecords } from '../../../components/no-records';
import { PageLoader } from '../../../components/page-loader';
import { paths } from '../../../config/paths';
import { useDeleteAddress } from '../api/delete-address';
import { useAddress } from '../api/get-address';
import { useEquipment } from '../api/get-equipment';
import { useRooms } from '../api/get-rooms';
import { AddressForm } from '../components/address-form';
import { AddressImage } from '../components/address-image';
import { MissingRecord } from '../components/missing-record';
import { PageSection } from '../components/page-section';
import { parseId } from '../../../lib/parse-id';
import { PlaceDevices } from '../components/place-devices';

/** `/account/addresses/{id}`: an address's details, image, rooms and devices; delete. */
export function AddressPage() {
  const { t } = useTranslation();
  const id = parseId(useParams().addressId);
  const remove = useDeleteAddress();
  // While (and after) it is being deleted, it is not asked for again: the list page is next.
  const { address, missing } = useAddress(id, { fetch: remove.isIdle || remove.isError });
  if (address) return <AddressDetails key={address.id} address={address} remove={remove} />;
  if (missing)
    return (
      <MissingRecord
        message={t('This address does not exist or has been deleted.')}
        back={paths.account.addresses.list}
        backLabel={t('← All addresses')}
      />
    );
  return <PageLoader inline />;
}

function AddressDetails({
  address,
  remove,
}: {
  address: Address;
  remove: ReturnType<typeof useDeleteAddress>;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const allRooms = useRooms();
  const { allowed: seesDevices } = useEquipment();
  const rooms = useMemo(
    () =>
      allRooms.filter((room) => room.address_id === address.id).sort((a, b) => a.name.localeCompare(b.name)),
    [allRooms, address.id],
  );
  const roomsById = useMemo(() => new Map(rooms.map((room) => [room.id, room])), [rooms]);

  return (
    <Stack gap="lg" maw={760}>
      <Stack gap={4}>
        <Anchor component={Link} to={paths.account.addresses.list} w="fit-content">
          {t('← All addresses')}
        </Anchor>
        <Text size="lg" fw={500}>
          {address.name}
        </Text>
      </Stack>

      <PageSection id="address-details" title={t('Details')}>
        <AddressForm address={address} />
      </PageSection>

      <PageSection id="address-image" title={t('Image')}>
        <AddressImage address={address} />
      </PageSection>

      <PageSection id="address-rooms" title={t('Rooms')}>
        <Stack gap="sm">
          {rooms.length === 0 ? (
            <NoRecords />
          ) : (
            <List listStyleType="none" spacing="xs" aria-labelledby="address-rooms">
              {rooms.map((room) => (
                <List.Item key={room.id}>
                  <Group gap="xs" wrap="wrap">
                    <Anchor component={Link} to={paths.account.addresses.room(room.id)}>
                      {room.name}
                    </Anchor>
                    {room.floor && (
                      <Text size="sm" c="dimmed">
                        {t('Floor {{floor}}', { floor: room.floor })}
                      </Text>
                    )}
                    <Badge variant="light" color="gray" tt="none">
                      {t('Devices: {{count}}', { count: room.devices_count })}
                    </Badge>
                  </Group>
                </List.Item>
              ))}
            </List>
          )}
          <Button
            component={Link}
            to={paths.account.addresses.roomAdd(address.id)}
            variant="default"
            w="fit-content"
          >
            {t('Add room')}
          </Button>
        </Stack>
      </PageSection>

      {seesDevices && (
        <PageSection id="address-devices" title={t('Devices')}>
          <PlaceDevices place={{ address_id: address.id }} rooms={roomsById} label={t('Devices')} />
        </PageSection>
      )}

      <PageSection id="address-delete" title={t('Delete address')}>
        <Stack gap="sm">
          <Text size="sm" c="dimmed">
            {t('An address with rooms or devices cannot be deleted: move or delete them first.')}
          </Text>
          <div>
            <ConfirmDeleteButton
              label={t('Delete address')}
              title={t('Delete the address «{{name}}»?', { name: address.name })}
              onConfirm={async () => {
                await remove.mutateAsync(address.id);
                void navigate(paths.account.addresses.list, { replace: true });
              }}
            />
          </div>
        </Stack>
      </PageSection>
    </Stack>
  );
}
