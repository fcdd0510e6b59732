import {
  LIVE_EVENTS,
  LIVE_PATH,
  liveDeviceEventsEventSchema,
  liveDevicesEventSchema,
  liveNotificationsEventSchema,
  liveSamplesEventSchema,
  type LiveDevice,
  type Notification,
  type LiveDeviceEventsEvent,
  type LiveSamplesEvent,
} from '@kontrol/contracts';

export type LiveSeries = LiveSamplesEvent['data'][number];
export type LiveDeviceEvent = LiveDeviceEventsEvent['data'][number];

export interface LiveListener {
  /** Devices that reported: their new last online moment, state and readings. */
  onDevices?: (devices: LiveDevice[]) => void;
  /** New raw samples of the devices in `samplesOf`. */
  onSamples?: (series: LiveSeries[]) => void;
  samplesOf?: readonly number[];
  /** Device events that opened, closed or changed (their lists and the dashboard read them again). */
  onDeviceEvents?: (events: LiveDeviceEvent[]) => void;
  /** The signed-in user's own new notifications that pass their web settings, newest first. */
  onNotifications?: (notifications: Notification[]) => void;
}

/**
 * The console's one live-updates stream (`GET /api/live`, Server-Sent Events; see
 * docs/live-updates.md), shared by every screen that listens. It opens with the first listener,
 * closes with the last, and reopens when the set of devices whose samples are wanted changes.
 * The browser reconnects a dropped stream by itself; a refused one (signed out) stays closed
 * until the listeners change.
 */
class LiveStream {
  private readonly listeners = new Set<LiveListener>();
  private source: EventSource | undefined;
  private url = '';
  private pending = false;

  subscribe(listener: LiveListener): () => void {
    this.listeners.add(listener);
    this.schedule();
    return () => {
      this.listeners.delete(listener);
      this.schedule();
    };
  }

  /** Several subscriptions change in one render: the stream is reopened once, after them. */
  private schedule() {
    if (this.pending) return;
    this.pending = true;
    queueMicrotask(() => {
      this.pending = false;
      this.sync();
    });
  }

  private sync() {
    if (typeof EventSource === 'undefined') return;
    if (this.listeners.size === 0) {
      this.close();
      return;
    }
    const devices = [...new Set([...this.listeners].flatMap((listener) => listener.samplesOf ?? []))].sort(
      (a, b) => a - b,
    );
    const url = `${LIVE_PATH}${devices.length > 0 ? `?devices=${devices.join(',')}` : ''}`;
    if (this.source && url === this.url && this.source.readyState !== EventSource.CLOSED) return;
    this.close();
    this.url = url;
    const source = new EventSource(url, { withCredentials: true });
    source.addEventListener(LIVE_EVENTS.devices, (event) => {
      const parsed = liveDevicesEventSchema.safeParse(JSON.parse((event as MessageEvent<string>).data));
      if (!parsed.success) return;
      for (const listener of this.listeners) listener.onDevices?.(parsed.data.data);
    });
    source.addEventListener(LIVE_EVENTS.samples, (event) => {
      const parsed = liveSamplesEventSchema.safeParse(JSON.parse((event as MessageEvent<string>).data));
      if (!parsed.success) return;
      for (const listener of this.listeners) {
        const wanted = listener.samplesOf;
        if (!listener.onSamples || !wanted?.length) continue;
        const own = parsed.data.data.filter((series) => wanted.includes(series.device_id));
        if (own.length > 0) listener.onSamples(own);
      }
    });
    source.addEventListener(LIVE_EVENTS.deviceEvents, (event) => {
      const parsed = liveDeviceEventsEventSchema.safeParse(JSON.parse((event as MessageEvent<string>).data));
      if (!parsed.success) return;
      for (const listener of this.listeners) listener.onDeviceEvents?.(parsed.data.data);
    });
    source.addEventListener(LIVE_EVENTS.notifications, (event) => {
      const parsed = liveNotificationsEventSchema.safeParse(JSON.parse((event as MessageEvent<string>).data));
      if (!parsed.success) return;
      for (const listener of this.listeners) listener.onNotifications?.(parsed.data.data);
    });
    this.source = source;
  }

  private close() {
    this.source?.close();
    this.source = undefined;
    this.url = '';
  }
}

export const liveStream = new LiveStream();
