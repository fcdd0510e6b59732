import type { Address } from '@kontrol/contracts';
import { useCurrentUser } from '../../../lib/auth/use-current-user';
import { useReferenceList } from '../../../lib/reference-data/use-reference-data';

/**
 * GET /api/addresses/ (the whole list) is reference data: the account frame loads it before the
 * page shows and keeps it cached until {@link reloadPlaces} forces a reload (docs/contract.md, "Product and areas", "States and transitions").
 */
export function useAddresses(): readonly Address[] {
  return useReferenceList<Address>(useCurrentUser(), 'addresses');
}
