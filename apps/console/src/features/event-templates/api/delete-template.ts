import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { reloadTemplates } from './reload-templates';

/** DELETE /api/devices/events/templates/{id} → 204; its devices lose their template (and norm). */
export async function deleteTemplate(id: number): Promise<void> {
  await apiClient.delete(`/devices/events/templates/${id}`);
}

/**
 * Deletes a template and reloads the templates and devices lists (docs/contract.md, "States and transitions"). The list deletes any
 * of its rows with it, so the id is the mutation's variable. A template's own page data is left to
 * expire: the page is on screen until the caller navigates away.
 */
export function useDeleteTemplate() {
  const client = useQueryClient();
  return useMutation({ mutationFn: deleteTemplate, onSuccess: () => reloadTemplates(client) });
}
