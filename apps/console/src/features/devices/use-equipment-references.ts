import type { Address, Device, DeviceEventTemplate, DeviceType, Room } from '@kontrol/contracts';
import { useCurrentUser } from '../../lib/auth/use-current-user';
import { useReferenceList } from '../../lib/reference-data/use-reference-data';

/**
 * The reference lists the equipment screens read (docs/contract.md, "Product and areas": loaded before account pages render):
 * every device, the device types, the addresses and rooms (empty without the `addresses`
 * module, whose lists are then never requested) and the current templates (empty without
 * `device_event_template`).
 */
export function useEquipmentReferences() {
  const user = useCurrentUser();
  return {
    devices: useReferenceList<Device>(user, 'devices'),
    types: useReferenceList<DeviceType>(user, 'deviceTypes'),
    addresses: useReferenceList<Address>(user, 'addresses'),
    rooms: useReferenceList<Room>(user, 'rooms'),
    templates: useReferenceList<DeviceEventTemplate>(user, 'deviceEventTemplates'),
  };
}
