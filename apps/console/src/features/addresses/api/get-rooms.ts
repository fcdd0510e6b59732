import type { Room } from '@kontrol/contracts';
import { useCurrentUser } from '../../../lib/auth/use-current-user';
import { useReferenceList } from '../../../lib/reference-data/use-reference-data';

/** GET /api/rooms/ (the whole list): cached reference data, like the addresses (docs/contract.md, "Product and areas", "States and transitions"). */
export function useRooms(): readonly Room[] {
  return useReferenceList<Room>(useCurrentUser(), 'rooms');
}
