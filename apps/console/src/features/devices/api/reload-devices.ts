import type { QueryClient } from '@tanstack/react-query';
import { reloadReference } from '../../../lib/reference-data/use-reference-data';

/**
 * docs/contract.md, "States and transitions": after a device is created, changed or deleted the devices list is reloaded. Groups hold
 * device ids and counts, so they are refetched too, and so are the current templates: each lists
 * the devices that use it (the templates list counts them).
 */
export async function reloadDevices(client: QueryClient): Promise<void> {
  await Promise.all([
    reloadReference(client, ['devices', 'deviceEventTemplates']),
    client.invalidateQueries({ queryKey: ['device-groups'] }),
  ]);
}
