import type { QueryClient } from '@tanstack/react-query';
import { reloadReference } from '../../reference-data/use-reference-data';

/**
 * SPEC §4: after a device is created, changed or deleted the devices list is reloaded. Groups hold
 * device ids and counts, so they are refetched too.
 */
export async function reloadDevices(client: QueryClient): Promise<void> {
  await Promise.all([
    reloadReference(client, ['devices']),
    client.invalidateQueries({ queryKey: ['device-groups'] }),
  ]);
}
