import type { QueryClient } from '@tanstack/react-query';
import { reloadReference } from '../../reference-data/use-reference-data';
import { deviceEventKeys } from './keys';

/**
 * docs/contract.md, "States and transitions": after a device event is created, changed or deleted the events list is reloaded: the
 * one loaded on entry (reference data) and the pages and events on screen.
 */
export async function reloadDeviceEvents(client: QueryClient): Promise<void> {
  await Promise.all([
    reloadReference(client, ['deviceEvents']),
    client.invalidateQueries({ queryKey: deviceEventKeys.all }),
  ]);
}
