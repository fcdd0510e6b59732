import type { QueryClient } from '@tanstack/react-query';
import { reloadReference } from '../../../lib/reference-data/use-reference-data';
import { deviceEventKeys } from '../../../lib/device-events/keys';

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
