import {
  DEVICE_STATES,
  DEVICE_VIEWING_MODULES,
  EVENT_READER_MODULES,
  LIVE_EVENTS,
  LIVE_HEARTBEAT_MS,
  LIVE_MAX_NOTIFICATIONS,
  LIVE_MAX_SAMPLES,
  LIVE_POLL_MS,
  LIVE_RETRY_MS,
  LIVE_SAMPLE_MODULES,
  MAX_CLOCK_AHEAD_MS,
  type LiveDevice,
  type LiveDeviceEventsEvent,
  type LiveDevicesEvent,
  type LiveNotificationsEvent,
  type LiveSamplesEvent,
  type ModuleSlug,
} from '@kontrol/contracts';

type LiveSeries = LiveSamplesEvent['data'][number];
import type { Database } from '@kontrol/db';
import type { Kysely } from 'kysely';
import type { ServerResponse } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import { clockIso, systemClock, type Clock, type ClockTimer } from '../../lib/clock.js';
import { findLiveSessionWithUser } from '../auth/sessions.repository.js';
import { findLiveAccessTokenUser } from '../auth/tokens.repository.js';
import { deliveryPlan, settingsFromRow } from '../notification-delivery/delivery-plan.js';
import { findSettings } from '../notification-delivery/notification-delivery.repository.js';
import { toNotification } from '../notifications/notifications.presenter.js';
import {
  countOwnDevices,
  findChangedEvents,
  findNewSamples,
  findNewestSamples,
  findRecentNotifications,
  findReportedSince,
  type RecentNotification,
  type ReportedDevice,
} from './live.repository.js';
import { loadCurrentUser, type CurrentUser } from '../users/users.repository.js';

/**
 * Devices are looked for among those whose newest sample is at most this old (by the device's
 * clock): every device that is online, with room for clocks behind ours.
 */
const RECENT_WINDOW_MS = 10 * 60_000;
/** A stream is closed after this long and the browser reconnects, signed in again (or not). */
const STREAM_LIFETIME_MS = 10 * 60_000;
/** A client this far behind (unsent bytes) is cut off; it reconnects and catches up. */
const MAX_BUFFERED_BYTES = 1 << 20;
/**
 * An ended stream whose reader has not taken its last bytes within this long is destroyed: a
 * reader that stopped reading would otherwise hold its socket, and the server's memory, for good.
 */
const ENDING_GRACE_MS = 5_000;

/**
 * A new stream is first sent the samples of its devices' last minute (by their clocks), so that
 * samples committed between the chart's own read and the stream's start are not lost; the
 * browser drops those it already has.
 */
const REPLAY_MS = 60_000;

/**
 * Notifications are looked for among those created this recently, so one whose transaction
 * commits late (a busy gateway) is still found; the hub remembers which of them it has seen.
 */
const NOTIFICATIONS_WINDOW_MS = 60_000;
/** Most rows one look reads (a storm): the newest; the rest stay in the list. */
const NOTIFICATIONS_READ_LIMIT = 1_000;

/** What a user's modules let their stream carry (docs/live-updates.md, "Who gets what"). */
export function liveGrants(user: Pick<CurrentUser, 'moduleSlugs'>) {
  const holds = (modules: readonly ModuleSlug[]) => modules.some((slug) => user.moduleSlugs.has(slug));
  return {
    devices: holds(DEVICE_VIEWING_MODULES),
    events: holds(EVENT_READER_MODULES),
    samples: holds(LIVE_SAMPLE_MODULES),
  };
}

/** What signed a stream in: a session (the hash of its id) or a personal access token (its id). */
export type LiveCredential = { session: string } | { accessToken: number };

export interface LiveSubscriber {
  organisationId: number;
  /** The signed-in user: their own notifications are sent to them (docs/notifications.md). */
  userId: number;
  /** Whether the caller may see devices' states (a module that shows devices). */
  devices: boolean;
  /** Whether the caller may read device events (EVENT_READER_MODULES). */
  events: boolean;
  /**
   * Devices whose new samples the caller wants, each with the time of the last sample it was
   * sent (a sample's own time, epoch ms); they start at {@link LiveHub.startingCursors}.
   */
  cursors: Map<number, number>;
  /** The event id the browser last had (a reconnect): devices that reported since are sent at once. */
  lastEventId: number | undefined;
  /** Looked at again every `sessionCheckMs`: a stream ends soon after its credential or access does. */
  credential: LiveCredential;
  stream: ServerResponse;
}

/** Whether `user` (as the credential finds them now) could open `subscriber`'s stream as it is. */
function stillGranted(subscriber: LiveSubscriber, user: CurrentUser | undefined): boolean {
  if (!user || user.id !== subscriber.userId || user.organisationId !== subscriber.organisationId)
    return false;
  const grants = liveGrants(user);
  return (
    grants.devices === subscriber.devices &&
    grants.events === subscriber.events &&
    (subscriber.cursors.size === 0 || grants.samples)
  );
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
  /** Device events changed at or after this moment (ISO) are looked for; those already sent at it are skipped. */
  private eventsSince: string | undefined;
  private eventsSentAt = new Set<string>();
  /** Notifications seen in the window (id → created_at, ISO), sent or not. */
  private readonly notificationsSeen = new Map<number, string>();
  /** When each listening user's first stream opened (ISO): their notifications from before are not new. */
  private readonly listeningSince = new Map<number, string>();
  private poll: ClockTimer | undefined;
  private heartbeat: NodeJS.Timeout | undefined;
  private accessCheck: ClockTimer | undefined;
  private closed = false;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly log: FastifyBaseLogger,
    /** How often the open streams' sessions, tokens, users and modules are looked at again. */
    private readonly sessionCheckMs: number,
    /** The time of the hub's looks (tests fire the next look at once: test/clock.ts). */
    private readonly clock: Clock = systemClock,
  ) {}

  get size(): number {
    return this.subscribers.size;
  }

  /** The open streams: whose, and how many bytes each has not yet handed to its socket. */
  streams(): { userId: number; bufferedBytes: number }[] {
    return [...this.subscribers].map((subscriber) => ({
      userId: subscriber.userId,
      bufferedBytes: subscriber.stream.writableLength,
    }));
  }

  /** True when every one of `deviceIds` is a device of the organisation (whose samples it may follow). */
  async ownsDevices(organisationId: number, deviceIds: readonly number[]): Promise<boolean> {
    return (await countOwnDevices(this.db, organisationId, deviceIds)) === deviceIds.length;
  }

  /** Where a new stream's samples of `deviceIds` start: a minute before each device's newest. */
  async startingCursors(deviceIds: readonly number[]): Promise<Map<number, number>> {
    const newest =
      deviceIds.length > 0 ? await findNewestSamples(this.db, deviceIds) : new Map<number, number>();
    return new Map(deviceIds.map((id) => [id, Math.max(0, (newest.get(id) ?? 0) - REPLAY_MS)]));
  }

  /**
   * Starts streaming to `subscriber`; the stream's headers must not have been sent yet. The stream
   * is the raw response of a hijacked reply, outside Fastify's error handling: every write goes
   * through {@link write}, and its errors end it here instead of the process.
   */
  add(subscriber: LiveSubscriber): void {
    const { stream } = subscriber;
    stream.on('error', (error) => {
      this.log.debug({ err: error, userId: subscriber.userId }, 'live stream failed');
      this.end(subscriber, 'destroy');
    });
    stream.on('close', () => this.forget(subscriber));
    // The server is closing, or the browser went away while the stream was being set up.
    if (this.closed || stream.destroyed || !stream.socket || stream.socket.destroyed) {
      stream.destroy();
      return;
    }
    stream.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      'x-accel-buffering': 'no',
      connection: 'keep-alive',
    });
    this.subscribers.add(subscriber);
    if (!this.listeningSince.has(subscriber.userId))
      this.listeningSince.set(subscriber.userId, clockIso(this.clock));
    const lifetime = setTimeout(() => this.end(subscriber, 'end'), STREAM_LIFETIME_MS);
    lifetime.unref();
    stream.once('close', () => clearTimeout(lifetime));
    this.write(subscriber, `retry: ${LIVE_RETRY_MS}\n: connected\n\n`);
    if (subscriber.lastEventId !== undefined) void this.catchUp(subscriber, subscriber.lastEventId);
    this.wake();
  }

  /** Ends every stream (the server is closing). */
  close(): void {
    this.closed = true;
    for (const subscriber of [...this.subscribers]) this.end(subscriber, 'end');
    this.idle();
  }

  /**
   * Ends a stream, and from this moment nothing more is written to it. `end` lets the reader take
   * what was sent (and reconnect), within {@link ENDING_GRACE_MS}; `destroy` (a reader too far
   * behind, or a failed stream) closes the socket at once, dropping what it had not taken.
   */
  private end(subscriber: LiveSubscriber, how: 'end' | 'destroy'): void {
    const { stream } = subscriber;
    this.forget(subscriber);
    if (how === 'destroy' || stream.writableLength > 0) {
      stream.destroy();
      return;
    }
    if (!stream.writableEnded) stream.end();
    const grace = setTimeout(() => stream.destroy(), ENDING_GRACE_MS);
    grace.unref();
    stream.once('close', () => clearTimeout(grace));
  }

  /** Takes a subscriber out of the hub (it may already be out); the last one stops the polling. */
  private forget(subscriber: LiveSubscriber): void {
    if (!this.subscribers.delete(subscriber)) return;
    // A user who comes back is looked at afresh: what came meanwhile is in their list.
    if (![...this.subscribers].some((other) => other.userId === subscriber.userId))
      this.listeningSince.delete(subscriber.userId);
    if (this.subscribers.size === 0) this.idle();
  }

  /**
   * Writes to a stream still in the hub. A stream whose reader is more than MAX_BUFFERED_BYTES
   * behind is destroyed instead: it reconnects and catches up, or it was never reading.
   */
  private write(subscriber: LiveSubscriber, chunk: string): void {
    const { stream } = subscriber;
    if (!this.subscribers.has(subscriber) || stream.writableEnded || stream.destroyed) return;
    if (stream.writableLength > MAX_BUFFERED_BYTES) {
      this.log.info({ userId: subscriber.userId }, 'live stream cut off: its reader is 1 MB behind');
      this.end(subscriber, 'destroy');
      return;
    }
    stream.write(chunk);
  }

  private wake() {
    if (this.poll) return;
    const loop = () =>
      this.tick().finally(() => {
        if (this.poll) this.poll = this.clock.setTimeout(loop, LIVE_POLL_MS);
      });
    this.poll = this.clock.setTimeout(loop, LIVE_POLL_MS);
    this.heartbeat = setInterval(() => {
      for (const subscriber of [...this.subscribers]) this.write(subscriber, ': ping\n\n');
    }, LIVE_HEARTBEAT_MS);
    this.heartbeat.unref();
    const check = () =>
      this.recheckAccess().finally(() => {
        if (this.accessCheck) this.accessCheck = this.clock.setTimeout(check, this.sessionCheckMs).unref();
      });
    this.accessCheck = this.clock.setTimeout(check, this.sessionCheckMs).unref();
  }

  private idle() {
    this.clock.clearTimeout(this.poll);
    clearInterval(this.heartbeat);
    this.clock.clearTimeout(this.accessCheck);
    this.poll = undefined;
    this.heartbeat = undefined;
    this.accessCheck = undefined;
    this.seen.clear();
    this.eventsSince = undefined;
    this.eventsSentAt.clear();
    this.notificationsSeen.clear();
    this.listeningSince.clear();
  }

  /**
   * Ends the streams that their caller could no longer open as they are: the session ended (logout,
   * a password change or reset elsewhere, expiry) or the token was revoked, the user was disabled,
   * or their modules no longer give the stream what it carries (or now give more). The browser
   * reconnects and gets a 401 or a stream of what it may see now. Streams sharing a credential
   * share one look; if the database does not answer, streams go on until the next check.
   */
  async recheckAccess(): Promise<void> {
    const now = clockIso(this.clock);
    const lookups = new Map<string, Promise<CurrentUser | undefined>>();
    for (const subscriber of [...this.subscribers]) {
      const { credential } = subscriber;
      const key =
        'session' in credential ? `session:${credential.session}` : `token:${credential.accessToken}`;
      let lookup = lookups.get(key);
      if (!lookup) {
        lookup = this.userOf(credential, now);
        lookups.set(key, lookup);
      }
      let user: CurrentUser | undefined;
      try {
        user = await lookup;
      } catch (error) {
        this.log.warn({ err: error }, "live updates: checking the streams' sessions failed");
        return;
      }
      if (!this.subscribers.has(subscriber) || stillGranted(subscriber, user)) continue;
      this.log.info({ userId: subscriber.userId }, 'live stream ended: its session or access changed');
      this.end(subscriber, 'end');
    }
  }

  private async userOf(credential: LiveCredential, now: string): Promise<CurrentUser | undefined> {
    if ('session' in credential)
      return (await findLiveSessionWithUser(this.db, credential.session, now))?.user;
    const userId = await findLiveAccessTokenUser(this.db, credential.accessToken, now);
    return userId === undefined ? undefined : loadCurrentUser(this.db, userId);
  }

  private organisations(): number[] {
    return [...new Set([...this.subscribers].map((subscriber) => subscriber.organisationId))];
  }

  /** One look at `device_live`: what changed goes to the streams. */
  private async tick(): Promise<void> {
    const organisations = this.organisations();
    if (organisations.length === 0) return;
    const now = this.clock.now();
    let rows: ReportedDevice[];
    try {
      rows = await findReportedSince(this.db, organisations, now - RECENT_WINDOW_MS);
    } catch (error) {
      this.log.warn({ err: error }, 'live updates: reading device_live failed');
      return;
    }

    const byOrganisation = new Map<number, LiveDevice[]>();
    for (const row of rows) {
      const lastTs = Number(row.last_ts);
      if (this.seen.get(row.device_id) === lastTs) continue;
      // A device seen for the first time (the first look, or it came online) is sent too.
      this.seen.set(row.device_id, lastTs);
      const list = byOrganisation.get(row.organisation_id) ?? [];
      list.push(toLiveDevice(row));
      byOrganisation.set(row.organisation_id, list);
    }
    const samples = await this.newSamples(rows);
    const events = await this.changedEvents(organisations, now);
    const notifications = await this.newNotifications(now);

    for (const subscriber of this.subscribers) {
      const devices = subscriber.devices ? byOrganisation.get(subscriber.organisationId) : undefined;
      if (devices)
        this.send(subscriber, LIVE_EVENTS.devices, { data: devices } satisfies LiveDevicesEvent, now);
      const own = samples.get(subscriber);
      if (own && own.length > 0)
        this.send(subscriber, LIVE_EVENTS.samples, { data: own } satisfies LiveSamplesEvent, now);
      const changed = subscriber.events ? events.get(subscriber.organisationId) : undefined;
      if (changed)
        this.send(
          subscriber,
          LIVE_EVENTS.deviceEvents,
          { data: changed } satisfies LiveDeviceEventsEvent,
          now,
        );
      const mine = notifications.get(subscriber.userId);
      if (mine && mine.length > 0)
        this.send(
          subscriber,
          LIVE_EVENTS.notifications,
          { data: mine } satisfies LiveNotificationsEvent,
          now,
        );
    }
  }

  /**
   * The listening users' notifications that arrived since the last look and pass their settings
   * (web channel on, kind and severity chosen; quiet hours do not apply), newest first, at most
   * LIVE_MAX_NOTIFICATIONS per user. Those created before the user's stream opened are not new.
   */
  private async newNotifications(now: number) {
    const byUser = new Map<number, LiveNotificationsEvent['data']>();
    const users = new Map<number, number>();
    for (const subscriber of this.subscribers) users.set(subscriber.userId, subscriber.organisationId);
    if (users.size === 0) return byUser;
    const since = new Date(now - NOTIFICATIONS_WINDOW_MS).toISOString();
    let rows: RecentNotification[];
    try {
      rows = await findRecentNotifications(this.db, [...users.keys()], since, NOTIFICATIONS_READ_LIMIT);
    } catch (error) {
      this.log.warn({ err: error }, 'live updates: reading notifications failed');
      return byUser;
    }
    for (const [id, createdAt] of this.notificationsSeen)
      if (createdAt < since) this.notificationsSeen.delete(id);

    const fresh: RecentNotification[] = [];
    for (const row of rows) {
      if (this.notificationsSeen.has(row.id)) continue;
      const createdAt = new Date(row.created_at).toISOString();
      this.notificationsSeen.set(row.id, createdAt);
      // Only a user's own rows, in their own organisation, from after their stream opened.
      const listening = this.listeningSince.get(row.user_id);
      if (users.get(row.user_id) !== row.organisation_id || !listening || createdAt < listening) continue;
      fresh.push(row);
    }
    if (fresh.length === 0) return byUser;

    let settings;
    try {
      const saved = await findSettings(this.db, [...new Set(fresh.map((row) => row.user_id))]);
      settings = new Map(saved.map((row) => [row.user_id, settingsFromRow(row)]));
    } catch (error) {
      this.log.warn({ err: error }, 'live updates: reading notification settings failed');
      return byUser;
    }
    for (const row of fresh) {
      const plan = deliveryPlan(settings.get(row.user_id) ?? settingsFromRow(null), row, now);
      if (!plan.web) continue;
      const list = byUser.get(row.user_id) ?? [];
      if (list.length >= LIVE_MAX_NOTIFICATIONS) continue;
      list.push(toNotification(row));
      byUser.set(row.user_id, list);
    }
    return byUser;
  }

  /**
   * Device events opened, closed or changed since the last look (by `updated_at`), per
   * organisation. The first look only sets where to start.
   */
  private async changedEvents(organisations: readonly number[], now: number) {
    const byOrganisation = new Map<number, LiveDeviceEventsEvent['data']>();
    if (this.eventsSince === undefined) {
      this.eventsSince = new Date(now).toISOString();
      return byOrganisation;
    }
    let rows;
    try {
      rows = await findChangedEvents(this.db, organisations, this.eventsSince);
    } catch (error) {
      this.log.warn({ err: error }, 'live updates: reading device events failed');
      return byOrganisation;
    }
    let newest = this.eventsSince;
    const keys = rows.map((row) => {
      const updatedAt = new Date(row.updated_at).toISOString();
      if (updatedAt > newest) newest = updatedAt;
      return { row, updatedAt, key: `${row.id}@${updatedAt}` };
    });
    for (const { row, key } of keys) {
      if (this.eventsSentAt.has(key)) continue;
      const list = byOrganisation.get(row.organisation_id) ?? [];
      list.push({
        id: row.id,
        device_id: row.device_id,
        kind: row.kind,
        severity: row.severity,
        started_at: new Date(Number(row.started_ts)).toISOString(),
        ended_at: row.ended_ts === null ? null : new Date(Number(row.ended_ts)).toISOString(),
      });
      byOrganisation.set(row.organisation_id, list);
    }
    // What was sent at the newest moment is asked for again next time (>=): remember it.
    const atNewest = keys.filter((entry) => entry.updatedAt === newest).map((entry) => entry.key);
    this.eventsSentAt = new Set(newest === this.eventsSince ? [...this.eventsSentAt, ...atNewest] : atNewest);
    this.eventsSince = newest;
    return byOrganisation;
  }

  /**
   * The samples each stream has not had yet of the devices it asked for: those after its cursor
   * up to the device's newest. Streams at the same cursor share one read.
   */
  private async newSamples(rows: readonly ReportedDevice[]) {
    const newest = new Map(rows.map((row) => [row.device_id, Number(row.last_ts)]));
    const reads = new Map<string, Promise<LiveSeries | undefined>>();
    const result = new Map<LiveSubscriber, LiveSeries[]>();
    for (const subscriber of this.subscribers) {
      for (const [deviceId, cursor] of subscriber.cursors) {
        const until = newest.get(deviceId);
        if (until === undefined || until <= cursor) continue;
        const key = `${deviceId}:${cursor}`;
        let read = reads.get(key);
        if (!read) {
          read = this.readSeries(deviceId, cursor, until);
          reads.set(key, read);
        }
        const series = await read;
        if (!series) continue;
        subscriber.cursors.set(deviceId, until);
        if (series.t.length > 0) result.set(subscriber, [...(result.get(subscriber) ?? []), series]);
      }
    }
    return result;
  }

  private async readSeries(deviceId: number, after: number, until: number): Promise<LiveSeries | undefined> {
    try {
      const samples = await findNewSamples(this.db, deviceId, after, until, LIVE_MAX_SAMPLES);
      return {
        device_id: deviceId,
        t: samples.map((sample) => Number(sample.ts)),
        values: {
          current: samples.map((sample) => sample.current),
          temperature: samples.map((sample) => sample.temperature),
          door_open: samples.map((sample) => sample.door_open),
          state: samples.map((sample) => sample.state),
        },
      };
    } catch (error) {
      this.log.warn({ err: error }, 'live updates: reading new samples failed');
      return undefined;
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
        this.send(subscriber, LIVE_EVENTS.devices, { data: rows.map(toLiveDevice) }, this.clock.now());
    } catch (error) {
      this.log.warn({ err: error }, 'live updates: catching up failed');
    }
  }

  private send(subscriber: LiveSubscriber, event: string, payload: unknown, id: number) {
    this.write(subscriber, `id: ${id}\nevent: ${event}\ndata: ${JSON.stringify(payload)}\n\n`);
  }
}
