import type { DeviceEventTemplate, DeviceEventTemplateBody } from '@kontrol/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { reloadTemplates } from './reload-templates';

/** POST /api/devices/events/templates/add → 201 with the template. */
export async function createTemplate(body: DeviceEventTemplateBody): Promise<DeviceEventTemplate> {
  return (await apiClient.post<{ data: DeviceEventTemplate }>('/devices/events/templates/add', body)).data
    .data;
}

/** Creates a template and reloads the templates and devices lists (docs/contract.md, "States and transitions"). */
export function useCreateTemplate() {
  const client = useQueryClient();
  return useMutation({ mutationFn: createTemplate, onSuccess: () => reloadTemplates(client) });
}
