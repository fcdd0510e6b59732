import {
  ADDRESS_NAME_MAX_LENGTH,
  CITY_MAX_LENGTH,
  FULL_ADDRESS_MAX_LENGTH,
  type Address,
} from '@kontrol/contracts';
import { Alert, Button, Group, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormFailure } from '../../../components/form-failure';
import { useFormDraft } from '../../../lib/form-draft';
import { useApiForm } from '../../../lib/use-api-form';
import { createAddress } from '../api/create-address';
import { reloadPlaces } from '../api/reload-places';
import { updateAddress } from '../api/update-address';
import {
  ADDRESS_FORM_FIELDS,
  toAddressBody,
  toAddressFormValues,
  type AddressFormValues,
} from './address-form-values';
import { TimeZoneSelect } from './time-zone-select';
import { WorkTimeEditor } from './work-time-editor';

/**
 * Adds an address (without `address`) or edits one. After the server accepts, addresses and rooms
 * are both reloaded without cache (docs/contract.md, "States and transitions") before `onSaved` runs, so the next screen sees the change.
 */
export function AddressForm({ address, onSaved }: { address?: Address; onSaved?: (saved: Address) => void }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [saved, setSaved] = useState(false);
  const draft = useFormDraft(address ? `address-${address.id}` : 'address-new', () =>
    toAddressFormValues(address),
  );
  const { form, onSubmit, submitting, failure } = useApiForm<AddressFormValues, Address>({
    initialValues: draft.initialValues,
    onValuesChange: draft.onValuesChange,
    submit: async (values) => {
      setSaved(false);
      const body = toAddressBody(values);
      const result = address ? await updateAddress(address.id, body) : await createAddress(body);
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

  // Plain text, not NumberInput: its formatter turned a pasted «56,8389» into 568389. The decimal
  // comma or point is read when the form is sent (address-form-values.ts).
  const coordinates = { inputMode: 'decimal' as const, autoComplete: 'off' };
  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack gap="md">
        <FormFailure failure={failure} fields={ADDRESS_FORM_FIELDS} />
        {saved && address && (
          <Alert color="green" role="status">
            {t('Saved.')}
          </Alert>
        )}
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
          <TextInput
            label={t('Address name')}
            required
            maxLength={ADDRESS_NAME_MAX_LENGTH}
            {...form.getInputProps('name')}
          />
          <TextInput
            label={t('City')}
            required
            maxLength={CITY_MAX_LENGTH}
            autoComplete="address-level2"
            {...form.getInputProps('city')}
          />
        </SimpleGrid>
        <TextInput
          label={t('Full address')}
          required
          maxLength={FULL_ADDRESS_MAX_LENGTH}
          autoComplete="street-address"
          {...form.getInputProps('full_address')}
        />
        <TimeZoneSelect
          required
          description={t('Work time and shift starts are in this zone.')}
          {...form.getInputProps('time_zone')}
        />
        <WorkTimeEditor form={form} />
        <Stack gap={4}>
          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md">
            <TextInput label={t('Latitude')} {...coordinates} {...form.getInputProps('latitude')} />
            <TextInput label={t('Longitude')} {...coordinates} {...form.getInputProps('longitude')} />
          </SimpleGrid>
          <Text size="xs" c="dimmed">
            {t('Optional: fill in both or neither, in decimal degrees (55.7558, 37.6173).')}
          </Text>
        </Stack>
        <Group>
          <Button type="submit" loading={submitting}>
            {t('Save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
