import type { Complaint } from '@kontrol/contracts';
import { Anchor, Group, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { paths } from '../../../config/paths';
import type { ComplaintReferences } from '../use-complaint-references';

/** The device's and the address's names of a complaint, from the reference data. */
export function subjectNames(
  complaint: Pick<Complaint, 'device_id' | 'address_id'>,
  references: ComplaintReferences,
): { device: string | null; address: string | null } {
  const device = complaint.device_id === null ? undefined : references.deviceById.get(complaint.device_id);
  const addressId = complaint.address_id ?? device?.address_id ?? null;
  const address = addressId === null ? undefined : references.addressById.get(addressId);
  return {
    device: complaint.device_id === null ? null : (device?.name ?? `#${complaint.device_id}`),
    address: addressId === null ? null : (address?.name ?? `#${addressId}`),
  };
}

/**
 * What a complaint is about: its device and address, linked to their pages when the user may open
 * them; one line in the list (`inline`), a labelled pair on the complaint's page.
 */
export function ComplaintSubject({
  complaint,
  references,
  inline = false,
}: {
  complaint: Pick<Complaint, 'device_id' | 'address_id'>;
  references: ComplaintReferences;
  inline?: boolean;
}) {
  const { t } = useTranslation();
  const names = subjectNames(complaint, references);
  const addressId = complaint.address_id ?? references.deviceById.get(complaint.device_id ?? 0)?.address_id;
  const device =
    names.device === null ? null : references.canOpenDevices && complaint.device_id !== null ? (
      <Anchor component={Link} to={paths.account.devices.detail(complaint.device_id)} fz="sm">
        {names.device}
      </Anchor>
    ) : (
      names.device
    );
  const address =
    names.address === null ? null : references.canOpenAddresses &&
      addressId !== undefined &&
      addressId !== null ? (
      <Anchor component={Link} to={paths.account.addresses.detail(addressId)} fz="sm">
        {names.address}
      </Anchor>
    ) : (
      names.address
    );

  if (inline) {
    return (
      <Text size="sm" truncate component="span">
        {device}
        {device !== null && address !== null && ' · '}
        {address}
        {device === null && address === null && '—'}
      </Text>
    );
  }
  return (
    <Group gap="lg" wrap="wrap">
      {device !== null && (
        <Text size="sm">
          <Text span c="dimmed" size="sm">
            {t('Device')}:{' '}
          </Text>
          {device}
        </Text>
      )}
      {address !== null && (
        <Text size="sm">
          <Text span c="dimmed" size="sm">
            {t('Address')}:{' '}
          </Text>
          {address}
        </Text>
      )}
    </Group>
  );
}
