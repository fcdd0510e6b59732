import type { QueryClient } from '@tanstack/react-query';
import { reloadReference } from '../../../lib/reference-data/use-reference-data';

/**
 * docs/contract.md, "States and transitions": after a template is created, changed or deleted the templates list is reloaded. A
 * template names the devices that use it (their `template_id`), so the devices list is reloaded
 * too.
 */
export async function reloadTemplates(client: QueryClient): Promise<void> {
  await reloadReference(client, ['deviceEventTemplates', 'devices']);
}
