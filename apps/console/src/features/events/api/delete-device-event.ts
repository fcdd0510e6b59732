import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { reloadReference } from '../../../lib/reference-data/use-reference-data';
import { deviceEventKeys } from '../../../lib/device-events/keys';

/** DELETE /api/devices/events/{id} → 204. */
export async function deleteDeviceEvent(id: number): Promise<void> {
  await apiClient.delete(`/devices/events/${id}`);
}

/**
 * Deletes an event and reloads the events lists (docs/contract.md, "States and transitions"). The event's own page data is left to
 * expire: the page is on screen until the caller navigates away and must not ask for it again.
 */
export function useDeleteDeviceEvent(id: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => deleteDeviceEvent(id),
    onSuccess: () =>
      Promise.all([
        reloadReference(client, ['deviceEvents']),
        client.invalidateQueries({ queryKey: deviceEventKeys.lists() }),
      ]),
  });
}
