import type { Notification } from '@kontrol/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { liveStream } from '../../../lib/live-stream';
import { LATEST_COUNT } from './get-latest-notifications';
import { bellKeys } from './keys';

/**
 * While mounted, listens for the user's new notifications on the live-updates stream (the
 * `notifications` event: the web channel). Each batch bumps the bell's count and joins its list at
 * once, is handed to `onArrive` (the pop-ups), and then the count and the notifications lists are
 * read again from the server, which stays the one that counts.
 */
export function useLiveNotifications(onArrive: (notifications: Notification[]) => void): void {
  const client = useQueryClient();
  const onArriveRef = useRef(onArrive);
  onArriveRef.current = onArrive;
  useEffect(
    () =>
      liveStream.subscribe({
        onNotifications: (arrived) => {
          if (arrived.length === 0) return;
          const unread = arrived.filter((one) => one.read_at === null).length;
          client.setQueryData<number>(bellKeys.unread, (count) => (count ?? 0) + unread);
          client.setQueryData<Notification[]>(bellKeys.latest, (list) => {
            if (!list) return list;
            const known = new Set(list.map((one) => one.id));
            return [...arrived.filter((one) => !known.has(one.id)), ...list].slice(0, LATEST_COUNT);
          });
          onArriveRef.current(arrived);
          void client.invalidateQueries({ queryKey: bellKeys.all });
        },
      }),
    [client],
  );
}
