import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { liveStream } from '../../../lib/live-stream';
import { deviceEventKeys } from '../../../lib/device-events/keys';

/** A busy fleet opens and closes events every second: the lists are read again at most this often. */
const THROTTLE_MS = 5_000;

/**
 * While mounted, reads the events lists and pages on screen again when the live-updates stream says
 * device events opened, closed or changed (the `device_events` event), at most once per
 * {@link THROTTLE_MS}.
 */
export function useLiveDeviceEvents(): void {
  const client = useQueryClient();
  useEffect(() => {
    let last = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const refresh = () => {
      last = Date.now();
      timer = undefined;
      void client.invalidateQueries({ queryKey: deviceEventKeys.all });
    };
    const unsubscribe = liveStream.subscribe({
      onDeviceEvents: () => {
        if (timer !== undefined) return;
        const wait = last + THROTTLE_MS - Date.now();
        if (wait <= 0) refresh();
        else timer = setTimeout(refresh, wait);
      },
    });
    return () => {
      unsubscribe();
      if (timer !== undefined) clearTimeout(timer);
    };
  }, [client]);
}
