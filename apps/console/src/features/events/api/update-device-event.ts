import type { DeviceEvent, DeviceEventUpdate } from '@kontrol/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { deviceEventKeys } from '../../../lib/device-events/keys';
import { reloadDeviceEvents } from './reload-device-events';

/**
 * PUT /api/devices/events/{id}: `{acknowledged: true, comment}` acknowledges (false takes it back);
 * a manual event may also change its title, description, severity and end.
 */
export async function updateDeviceEvent(id: number, body: DeviceEventUpdate): Promise<DeviceEvent> {
  return (await apiClient.put<{ data: DeviceEvent }>(`/devices/events/${id}`, body)).data.data;
}

/**
 * Changes any event (the list acknowledges its rows with it): the answer replaces the event's
 * own copy, then the events lists are reloaded (docs/contract.md, "States and transitions").
 */
export function useUpdateDeviceEvent() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: DeviceEventUpdate }) => updateDeviceEvent(id, body),
    onSuccess: (event) => {
      client.setQueryData(deviceEventKeys.detail(event.id), event);
      return reloadDeviceEvents(client);
    },
  });
}
