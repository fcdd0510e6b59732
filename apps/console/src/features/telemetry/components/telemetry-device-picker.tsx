import { MAX_TELEMETRY_DEVICES, type Address, type Device } from '@kontrol/contracts';
import { MultiSelect } from '@mantine/core';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';

/** An option's text: the device's name, and its address when the user may see addresses. */
export function deviceOptionLabel(device: Device, addressNames: ReadonlyMap<number, string>): string {
  const address = addressNames.get(device.address_id);
  return address ? `${device.name} · ${address}` : device.name;
}

/**
 * Chooses the devices to chart among the organisation's smart devices (only they send telemetry,
 * docs/contract.md, "Entities" `is_smart`), up to {@link MAX_TELEMETRY_DEVICES}: a searchable list that renders at most
 * a hundred matches at a time, so 10 000 devices stay quick. A chosen device that is no longer
 * smart (or not in the list) still shows, so it can be removed.
 */
export function TelemetryDevicePicker({
  devices,
  addresses,
  value,
  onChange,
}: {
  devices: readonly Device[];
  addresses: readonly Address[];
  value: readonly number[];
  onChange: (ids: number[]) => void;
}) {
  const { t } = useTranslation();
  const options = useMemo(() => {
    const addressNames = new Map(addresses.map((address) => [address.id, address.name]));
    const byId = new Map(devices.map((device) => [device.id, device]));
    const smart = devices
      .filter((device) => device.is_smart)
      .map((device) => ({ value: device.id, label: deviceOptionLabel(device, addressNames) }));
    const listed = new Set(smart.map((option) => option.value));
    const others = value
      .filter((id) => !listed.has(id))
      .map((id) => {
        const device = byId.get(id);
        return { value: id, label: device ? deviceOptionLabel(device, addressNames) : `#${id}` };
      });
    return [...others, ...smart];
  }, [devices, addresses, value]);

  return (
    <MultiSelect<number>
      label={t('Devices on the charts')}
      description={t('Smart devices, up to {{count}}', { count: MAX_TELEMETRY_DEVICES })}
      placeholder={value.length === 0 ? t('Choose devices') : undefined}
      data={options}
      value={[...value]}
      onChange={onChange}
      maxValues={MAX_TELEMETRY_DEVICES}
      searchable
      clearable
      hidePickedOptions
      limit={100}
      nothingFoundMessage={t('Nothing found')}
      style={{ flex: '1 1 22rem', minWidth: 0 }}
    />
  );
}
