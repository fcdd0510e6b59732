import type { DeviceEventTemplate, DeviceEventTemplateBody } from '@kontrol/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { templateKeys } from './keys';
import { reloadTemplates } from './reload-templates';

/** PUT /api/devices/events/templates/{id}: the whole template (its rules, bands and devices). */
export async function updateTemplate(
  id: number,
  body: DeviceEventTemplateBody,
): Promise<DeviceEventTemplate> {
  return (await apiClient.put<{ data: DeviceEventTemplate }>(`/devices/events/templates/${id}`, body)).data
    .data;
}

/** Saves a template: the answer becomes its own copy, then the lists are reloaded (docs/contract.md, "States and transitions"). */
export function useUpdateTemplate(id: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: DeviceEventTemplateBody) => updateTemplate(id, body),
    onSuccess: (template) => {
      client.setQueryData(templateKeys.detail(id), template);
      return reloadTemplates(client);
    },
  });
}
