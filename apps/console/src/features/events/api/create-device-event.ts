import type { DeviceEvent, DeviceEventBody } from '@kontrol/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { reloadDeviceEvents } from './reload-device-events';

/** POST /api/devices/events/add → 201 with the event: one written by hand (`kind: manual`). */
export async function createDeviceEvent(body: DeviceEventBody): Promise<DeviceEvent> {
  return (await apiClient.post<{ data: DeviceEvent }>('/devices/events/add', body)).data.data;
}

/** Creates a manual event and reloads the events lists (docs/contract.md, "States and transitions"). */
export function useCreateDeviceEvent() {
  const client = useQueryClient();
  return useMutation({ mutationFn: createDeviceEvent, onSuccess: () => reloadDeviceEvents(client) });
}
