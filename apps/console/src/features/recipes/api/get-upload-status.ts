import type { RecipeBind, UploadState } from '@kontrol/contracts';
import { useQuery } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { deploymentKeys } from './keys';

/** `GET /api/devices/{id}/get_upload_status` (the contracts' `uploadStatusSchema`). */
export interface UploadStatus {
  device_id: number;
  counts: Partial<Record<UploadState, number>>;
  binds: RecipeBind[];
  /** The set the device holds, when the server says so. */
  set_id?: number | null;
}

/** How often the progress of a delivery under way is asked for. */
export const UPLOAD_POLL_MS = 2_000;

/** States that are still on their way to installed or failed (or to gone, for removals). */
const MOVING: ReadonlySet<UploadState> = new Set(['queued', 'sending', 'removing']);

/** Whether any of the binds is still moving: queued (e.g. the device is offline), sending or removing. */
export function isDelivering(binds: readonly RecipeBind[]): boolean {
  return binds.some((bind) => MOVING.has(bind.state));
}

/** GET /api/devices/{id}/get_upload_status: what is bound to the device and how its delivery goes. */
export async function getUploadStatus(deviceId: number, signal?: AbortSignal): Promise<UploadStatus> {
  return (await apiClient.get<{ data: UploadStatus }>(`/devices/${deviceId}/get_upload_status`, { signal }))
    .data.data;
}

/**
 * A device's delivery, asked again every {@link UPLOAD_POLL_MS} while anything is queued, sending
 * or removing (`binds` narrows what counts, e.g. one set's), and no more once everything is
 * installed or failed. Unmounting (a dialog closing, another tab) stops it. `0` asks for nothing.
 */
export function useUploadStatus(
  deviceId: number,
  options: {
    select?: (bind: RecipeBind) => boolean;
    /**
     * Until this moment (epoch ms) no bind counts as news not yet there: asked for again while
     * none is (just after a deployment, before the server has bound anything).
     */
    awaitBindsUntil?: number;
  } = {},
) {
  const { select, awaitBindsUntil = 0 } = options;
  return useQuery({
    queryKey: deploymentKeys.status(deviceId),
    queryFn: ({ signal }) => getUploadStatus(deviceId, signal),
    enabled: deviceId > 0,
    refetchInterval: (query) => {
      const all = query.state.data?.binds ?? [];
      const binds = select ? all.filter(select) : all;
      if (binds.length === 0 && Date.now() < awaitBindsUntil) return UPLOAD_POLL_MS;
      return isDelivering(binds) ? UPLOAD_POLL_MS : false;
    },
  });
}
