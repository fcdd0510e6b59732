import {
  DEVICE_STATES,
  LIVE_EVENTS,
  LIVE_HEARTBEAT_MS,
  LIVE_MAX_SAMPLES,
  LIVE_POLL_MS,
  LIVE_RETRY_MS,
  MAX_CLOCK_AHEAD_MS,
  type LiveDevice,
  type LiveDevicesEvent,
  type LiveSamplesEvent,
} from '@kontrol/contracts';
import type { Database } from '@kontrol/db';
import type { Kysely } from 'kysely';
import type { ServerResponse } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import { findNewSamples, findReportedSince, type ReportedDevice } from './live.repository.js';

/**
 * Devices are looked for among those whose newest sample is at most this old (by the device's
 * clock): every device that is online, with room for clocks behind ours.
 */
const RECENT_WINDOW_MS = 10 * 60_000;
/** A stream is closed after this long and the browser reconnects, signed in again (or not). */
const STREAM_LIFETIME_MS = 10 * 60_000;
/** A client this far behind (unsent bytes) is cut off; it reconnects and catches up. */
const MAX_BUFFERED_BYTES = 1 << 20;

export interface LiveSubscriber {
  organisationId: number;
  /** Whether the caller may see devices' states (a module that shows devices). */
  devices: boolean;
  /** Devices whose new samples the caller wants. */
  samplesOf: ReadonlySet<number>;
  /** The event id the browser last had (a reconnect): devices that reported since are sent at once. */
  lastEventId: number | undefined;
  stream: ServerResponse;
}

function toLiveDevice(row: ReportedDevice): LiveDevice {
  return {
    id: row.device_id,
    last_online: { last_utc: row.last_online_at ?? new Date(Number(row.last_ts)).toISOString() },
    work_start: { date: row.work_start_date, start: row.work_start_time },
    state: row.state === null ? null : (DEVICE_STATES[row.state] ?? null),
    current: row.current,
    temperature: row.temperature,
  };
}

/**
 * The live updates of one API process (docs/live-updates.md). It does not hear the gateway
 * directly (the gateway may be another process): while anyone listens, it reads `device_live`
 * every LIVE_POLL_MS for the listening organisations, compares each device's newest sample time
 * with the last one it saw, and sends the devices that reported, and their new samples to the
 * streams that asked for them.
 */
export class LiveHub {
  private readonly subscribers = new Set<LiveSubscriber>();
  /** Newest sample time seen per device, for the organisations listening. */
  private readonly seen = new Map<number, number>();
  private poll: NodeJS.Timeout | undefined;
  private heartbeat: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly log: FastifyBaseLogger,
  ) {}

  get size(): number {
    return this.subscribers.size;
  }

  /** Starts streaming to `subscriber`; the stream's headers must not have been sent yet. */
  add(subscriber: LiveSubscriber): void {
    const { stream } = subscriber;
    stream.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      'x-accel-buffering': 'no',
      connection: 'keep-alive',
    });
    stream.write(`retry: ${LIVE_RETRY_MS}\n: connected\n\n`);
    this.subscribers.add(subscriber);
    const lifetime = setTimeout(() => stream.end(), STREAM_LIFETIME_MS);
    lifetime.unref();
    stream.on('close', () => {
      clearTimeout(lifetime);
      this.subscribers.delete(subscriber);
      if (this.subscribers.size === 0) this.idle();
    });
    if (subscriber.lastEventId !== undefined) void this.catchUp(subscriber, subscriber.lastEventId);
    if (this.closed) stream.end();
    else this.wake();
  }

  /** Ends every stream (the server is closing). */
  close(): void {
    this.closed = true;
    for (const subscriber of this.subscribers) subscriber.stream.end();
    this.idle();
  }

  private wake() {
    if (this.poll) return;
    const loop = () => {
      void this.tick().finally(() => {
        if (this.poll) this.poll = setTimeout(loop, LIVE_POLL_MS);
      });
    };
    this.poll = setTimeout(loop, LIVE_POLL_MS);
    this.heartbeat = setInterval(() => {
      for (const subscriber of this.subscribers) subscriber.stream.write(': ping\n\n');
    }, LIVE_HEARTBEAT_MS);
    this.heartbeat.unref();
  }

  private idle() {
    clearTimeout(this.poll);
    clearInterval(this.heartbeat);
    this.poll = undefined;
    this.heartbeat = undefined;
    this.seen.clear();
  }

  private organisations(): number[] {
    return [...new Set([...this.subscribers].map((subscriber) => subscriber.organisationId))];
  }

  /** One look at `device_live`: what changed goes to the streams. */
  private async tick(): Promise<void> {
    const organisations = this.organisations();
    if (organisations.length === 0) return;
    const now = Date.now();
    let rows: ReportedDevice[];
    try {
      rows = await findReportedSince(this.db, organisations, now - RECENT_WINDOW_MS);
    } catch (error) {
      this.log.warn({ err: error }, 'live updates: reading device_live failed');
      return;
    }
    const changed: { row: ReportedDevice; previous: number | undefined }[] = [];
    for (const row of rows) {
      const lastTs = Number(row.last_ts);
      const previous = this.seen.get(row.device_id);
      if (previous === lastTs) continue;
      this.seen.set(row.device_id, lastTs);
      // A device seen for the first time (the first look, or it came online) has no "since" for samples.
      changed.push({ row, previous });
    }
    if (changed.length === 0) return;

    const wanted = new Set<number>();
    for (const subscriber of this.subscribers) for (const id of subscriber.samplesOf) wanted.add(id);
    const series = new Map<number, LiveSamplesEvent['data'][number]>();
    for (const { row, previous } of changed) {
      if (previous === undefined || !wanted.has(row.device_id) || Number(row.last_ts) < previous) continue;
      try {
        const samples = await findNewSamples(
          this.db,
          row.device_id,
          previous,
          Number(row.last_ts),
          LIVE_MAX_SAMPLES,
        );
        series.set(row.device_id, {
          device_id: row.device_id,
          t: samples.map((sample) => Number(sample.ts)),
          values: {
            current: samples.map((sample) => sample.current),
            temperature: samples.map((sample) => sample.temperature),
            door_open: samples.map((sample) => sample.door_open),
            state: samples.map((sample) => sample.state),
          },
        });
      } catch (error) {
        this.log.warn({ err: error }, 'live updates: reading new samples failed');
      }
    }

    const byOrganisation = new Map<number, LiveDevice[]>();
    for (const { row } of changed) {
      const list = byOrganisation.get(row.organisation_id) ?? [];
      list.push(toLiveDevice(row));
      byOrganisation.set(row.organisation_id, list);
    }
    for (const subscriber of this.subscribers) {
      const devices = subscriber.devices ? byOrganisation.get(subscriber.organisationId) : undefined;
      if (devices)
        this.send(subscriber, LIVE_EVENTS.devices, { data: devices } satisfies LiveDevicesEvent, now);
      const own = [...subscriber.samplesOf].flatMap((id) => series.get(id) ?? []);
      if (own.length > 0)
        this.send(subscriber, LIVE_EVENTS.samples, { data: own } satisfies LiveSamplesEvent, now);
    }
  }

  /** A reconnect: the devices that reported since the browser's last event (less a margin for clocks). */
  private async catchUp(subscriber: LiveSubscriber, lastEventId: number) {
    if (!subscriber.devices) return;
    try {
      const rows = await findReportedSince(
        this.db,
        [subscriber.organisationId],
        lastEventId - MAX_CLOCK_AHEAD_MS,
      );
      if (rows.length > 0)
        this.send(subscriber, LIVE_EVENTS.devices, { data: rows.map(toLiveDevice) }, Date.now());
    } catch (error) {
      this.log.warn({ err: error }, 'live updates: catching up failed');
    }
  }

  private send(subscriber: LiveSubscriber, event: string, payload: unknown, id: number) {
    const { stream } = subscriber;
    if (stream.writableEnded) return;
    if (stream.writableLength > MAX_BUFFERED_BYTES) {
      stream.end();
      return;
    }
    stream.write(`id: ${id}\nevent: ${event}\ndata: ${JSON.stringify(payload)}\n\n`);
  }
}
