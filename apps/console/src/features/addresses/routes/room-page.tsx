import type { Room } from '@kontrol/contracts';
import { Anchor, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { ConfirmDeleteButton } from '../../../components/confirm-delete';
import { PageLoader } from '../../../components/page-loader';
import { paths } from '../../../config/paths';
import { useDeleteRoom } from '../api/delete-room';
import { useAddresses } from '../api/get-addresses';
import { useEquipment } from '../api/get-equipment';
import { useRoom } from '../api/get-room';
import { MissingRecord } from '../components/missing-record';
import { PageSection } from '../components/page-section';
import { parseId } from '../../../lib/parse-id';
import { PlaceDevices } from '../components/place-devices';
import { RoomForm } from '../components/room-form';

/** `/account/addresses/room/{id}`: a room's details and devices; delete. */
export function RoomPage() {
  const { t } = useTranslation();
  const id = parseId(useParams().roomId);
  const remove = useDeleteRoom();
  const { room, missing } = useRoom(id, { fetch: remove.isIdle || remove.isError });
  if (room) return <RoomDetails key={room.id} room={room} remove={remove} />;
  if (missing)
    return (
      <MissingRecord
        message={t('This room does not exist or has been deleted.')}
        back={paths.account.addresses.list}
        backLabel={t('← All addresses')}
      />
    );
  return <PageLoader inline />;
}

function RoomDetails({ room, remove }: { room: Room; remove: ReturnType<typeof useDeleteRoom> }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const address = useAddresses().find((a) => a.id === room.address_id);
  const { allowed: seesDevices } = useEquipment();
  const addressPath = paths.account.addresses.detail(room.address_id);

  return (
    <Stack gap="lg" maw={760}>
      <Stack gap={4}>
        <Anchor component={Link} to={addressPath} w="fit-content">
          {address ? t('← {{name}}', { name: address.name }) : t('← Back to the address')}
        </Anchor>
        <Text size="lg" fw={500}>
          {room.name}
        </Text>
      </Stack>

      <PageSection id="room-details" title={t('Details')}>
        <RoomForm room={room} />
      </PageSection>

      {seesDevices && (
        <PageSection id="room-devices" title={t('Devices')}>
          <PlaceDevices place={{ room_id: room.id }} label={t('Devices')} />
        </PageSection>
      )}

      <PageSection id="room-delete" title={t('Delete room')}>
        <Stack gap="sm">
          <Text size="sm" c="dimmed">
            {t('A room with devices cannot be deleted: move or delete them first.')}
          </Text>
          <div>
            <ConfirmDeleteButton
              label={t('Delete room')}
              title={t('Delete the room «{{name}}»?', { name: room.name })}
              onConfirm={async () => {
                await remove.mutateAsync(room.id);
                void navigate(addressPath, { replace: true });
              }}
            />
          </div>
        </Stack>
      </PageSection>
    </Stack>
  );
}
