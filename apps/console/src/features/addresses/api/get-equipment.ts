import type { Device, DeviceType } from '@kontrol/contracts';
import { useCurrentUser } from '../../../lib/auth/use-current-user';
import { useReferenceList } from '../../../lib/reference-data/use-reference-data';

/**
 * The devices and device types of the reference data (the devices feature owns their screens).
 * `allowed` is false for a user without the `devices` module: nothing was loaded for them.
 */
export function useEquipment(): {
  allowed: boolean;
  devices: readonly Device[];
  deviceTypes: readonly DeviceType[];
} {
  const user = useCurrentUser();
  return {
    allowed: user.acl_modules.some((m) => m.slug === 'devices'),
    devices: useReferenceList<Device>(user, 'devices'),
    deviceTypes: useReferenceList<DeviceType>(user, 'deviceTypes'),
  };
}
