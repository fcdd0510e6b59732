import type { QueryClient } from '@tanstack/react-query';
import { reloadReference } from '../../../lib/reference-data/use-reference-data';

/** Query key prefix of single addresses and rooms fetched by id (not in the cached lists yet). */
export const placeKeys = {
  address: (id: number) => ['addresses', id] as const,
  room: (id: number) => ['rooms', id] as const,
};

/**
 * docs/contract.md, "States and transitions": after an address or a room is created, updated or deleted, both lists are reloaded
 * without cache (a room's change alters its address's counts; an address's deletion its rooms).
 */
export async function reloadPlaces(client: QueryClient): Promise<void> {
  // Single records fetched by id are stale too; the reloaded lists hold them from now on.
  await client.invalidateQueries({ queryKey: ['addresses'], refetchType: 'none' });
  await client.invalidateQueries({ queryKey: ['rooms'], refetchType: 'none' });
  await reloadReference(client, ['addresses', 'rooms'], { force: true });
}
