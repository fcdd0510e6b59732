import {
  DESCRIPTION_MAX_LENGTH,
  ROOM_FLOOR_MAX_LENGTH,
  ROOM_NAME_MAX_LENGTH,
  type Room,
} from '@kontrol/contracts';
import { Alert, Button, Group, Select, SimpleGrid, Stack, TextInput, Textarea } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormFailure } from '../../../components/form-failure';
import { useFormDraft } from '../../../lib/form-draft';
import { useApiForm } from '../../../lib/use-api-form';
import { createRoom } from '../api/create-room';
import { useAddresses } from '../api/get-addresses';
import { reloadPlaces } from '../api/reload-places';
import { updateRoom } from '../api/update-room';

type RoomFormValues = { name: string; address_id: string | null; floor: string; description: string };
const ROOM_FORM_FIELDS = ['name', 'address_id', 'floor', 'description'];

/**
 * Adds a room (without `room`; `addressId` preselects its address) or edits one. After the server
 * accepts, addresses and rooms are both reloaded without cache (docs/contract.md, "States and transitions") before `onSaved` runs.
 */
export function RoomForm({
  room,
  addressId,
  onSaved,
}: {
  room?: Room;
  addressId?: number | null;
  onSaved?: (saved: Room) => void;
}) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const addresses = useAddresses();
  const [saved, setSaved] = useState(false);
  const options = useMemo(
    () =>
      [...addresses]
        .sort((a, b) => a.name.localeCompare(b.name))
        .map((address) => ({ value: String(address.id), label: `${address.name}, ${address.city}` })),
    [addresses],
  );
  const preselected = room?.address_id ?? addressId ?? null;
  const draft = useFormDraft(room ? `room-${room.id}` : 'room-new', (): RoomFormValues => ({
    name: room?.name ?? '',
    address_id: preselected === null ? null : String(preselected),
    floor: room?.floor ?? '',
    description: room?.description ?? '',
  }));
  const { form, onSubmit, submitting, failure } = useApiForm<RoomFormValues, Room>({
    initialValues: draft.initialValues,
    onValuesChange: draft.onValuesChange,
    submit: async (values) => {
      setSaved(false);
      const body = {
        name: values.name,
        // The server says what is wrong with a missing address, in the interface language.
        address_id: values.address_id === null ? 0 : Number(values.address_id),
        floor: values.floor,
        description: values.description,
      };
      const result = room ? await updateRoom(room.id, body) : await createRoom(body);
      draft.clear();
      await reloadPlaces(client);
      return result;
    },
    onSuccess: (result, changed) => {
      changed.resetDirty();
      setSaved(true);
      onSaved?.(result);
    },
  });

  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack gap="md">
        <FormFailure failure={failure} fields={ROOM_FORM_FIELDS} />
        {saved && room && (
          <Alert color="green" role="status">
            {t('Saved.')}
          </Alert>
        )}
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
          <TextInput
            label={t('Room name')}
            required
            maxLength={ROOM_NAME_MAX_LENGTH}
            {...form.getInputProps('name')}
          />
          <Select
            label={t('Address')}
            required
            searchable
            allowDeselect={false}
            data={options}
            nothingFoundMessage={t('Nothing found')}
            {...form.getInputProps('address_id')}
          />
        </SimpleGrid>
        <TextInput label={t('Floor')} maxLength={ROOM_FLOOR_MAX_LENGTH} {...form.getInputProps('floor')} />
        <Textarea
          label={t('Description')}
          autosize
          minRows={2}
          maxRows={8}
          maxLength={DESCRIPTION_MAX_LENGTH}
          {...form.getInputProps('description')}
        />
        <Group>
          <Button type="submit" loading={submitting}>
            {t('Save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
