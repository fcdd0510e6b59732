import type { Room } from '@kontrol/contracts';
import { useCurrentUser } from '../../auth/use-current-user';
import { useReferenceList } from '../../reference-data/use-reference-data';

/** GET /api/rooms/ (the whole list): cached reference data, like the addresses (SPEC §1, §4). */
export function useRooms(): readonly Room[] {
  return useReferenceList<Room>(useCurrentUser(), 'rooms');
}
