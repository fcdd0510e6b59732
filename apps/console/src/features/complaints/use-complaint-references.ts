import type { Address, Device } from '@kontrol/contracts';
import { useMemo } from 'react';
import { useCurrentUser } from '../../lib/auth/use-current-user';
import { useReferenceList } from '../../lib/reference-data/use-reference-data';

/**
 * The devices and addresses complaints are about, from the reference data (docs/contract.md, "Product and areas"): names by id,
 * and whether the user may open their pages (links only then).
 */
export function useComplaintReferences() {
  const user = useCurrentUser();
  const devices = useReferenceList<Device>(user, 'devices');
  const addresses = useReferenceList<Address>(user, 'addresses');
  return useMemo(() => {
    const held = new Set(user.acl_modules.map((module) => module.slug));
    const deviceById = new Map(devices.map((device) => [device.id, device]));
    const addressById = new Map(addresses.map((address) => [address.id, address]));
    return {
      devices,
      addresses,
      deviceById,
      addressById,
      canOpenDevices: held.has('devices'),
      canOpenAddresses: held.has('addresses'),
    };
  }, [user, devices, addresses]);
}

export type ComplaintReferences = ReturnType<typeof useComplaintReferences>;
