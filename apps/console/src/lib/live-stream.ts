import {
  LIVE_EVENTS,
  LIVE_PATH,
  type LiveDevice,
  type Notification,
  type LiveDeviceEventsEvent,
  type LiveSamplesEvent,
} from '@kontrol/contracts';
import type * as LiveSchemaModule from './live-schemas';

export type LiveSeries = LiveSamplesEvent['data'][number];
export type LiveDeviceEvent = LiveDeviceEventsEvent['data'][number];

type LiveSchemas = typeof LiveSchemaModule;
let schemas: Promise<LiveSchemas> | undefined;

/**
 * The events' schemas, loaded once, with the first message: zod stays out of the modules every
 * account page evaluates as it starts. A failed load is tried again with the next message.
 */
function liveSchemas(): Promise<LiveSchemas> {
  schemas ??= import('./live-schemas').catch((error: unknown) => {
    schemas = undefined;
    throw error;
  });
  return schemas;
}

/**
 * Calls `handle` with the schemas and the message's JSON, in the order the messages came (each
 * waits on the same promise); a message that cannot be read is dropped, as one that fails its schema.
 */
function onMessage(source: EventSource, name: string, handle: (schemas: LiveSchemas, data: unknown) => void) {
  source.addEventListener(name, (event) => {
    const text = (event as MessageEvent<string>).data;
    liveSchemas().then(
      (loaded) => {
        let data: unknown;
        try {
          data = JSON.parse(text);
        } catch {
          return; // not JSON
        }
        handle(loaded, data);
      },
      () => undefined, // the schemas did not load: this message is lost, the next tries again
    );
  });
}

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
    onMessage(source, LIVE_EVENTS.devices, ({ liveDevicesEventSchema }, data) => {
      const parsed = liveDevicesEventSchema.safeParse(data);
      if (!parsed.success) return;
      for (const listener of this.listeners) listener.onDevices?.(parsed.data.data);
    });
    onMessage(source, LIVE_EVENTS.samples, ({ liveSamplesEventSchema }, data) => {
      const parsed = liveSamplesEventSchema.safeParse(data);
      if (!parsed.success) return;
      for (const listener of this.listeners) {
        const wanted = listener.samplesOf;
        if (!listener.onSamples || !wanted?.length) continue;
        const own = parsed.data.data.filter((series) => wanted.includes(series.device_id));
        if (own.length > 0) listener.onSamples(own);
      }
    });
    onMessage(source, LIVE_EVENTS.deviceEvents, ({ liveDeviceEventsEventSchema }, data) => {
      const parsed = liveDeviceEventsEventSchema.safeParse(data);
      if (!parsed.success) return;
      for (const listener of this.listeners) listener.onDeviceEvents?.(parsed.data.data);
    });
    onMessage(source, LIVE_EVENTS.notifications, ({ liveNotificationsEventSchema }, data) => {
      const parsed = liveNotificationsEventSchema.safeParse(data);
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
