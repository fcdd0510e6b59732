import {
  DEVICE_LIMIT_NOTIFICATION_KIND,
  DEVICE_LIMIT_REASONS,
  deviceLimitReasonText,
  translate,
  type DeviceLimitReason,
} from '@kontrol/contracts';
import type { Database } from '@kontrol/db';
import type { FastifyBaseLogger as Logger } from 'fastify';
import { sql, type Kysely, type Transaction } from 'kysely';
import { eventRecipients } from '@kontrol/domain';
import type { DayDelta, DeviceLimiter } from './device-limiter.js';

/** How often each process writes what is due (refusals are written at the next tick). */
const EVERY_MS = 2_000;
const CHUNK = 500;

export interface UsageRecorderOptions {
  db: Kysely<Database>;
  limiter: DeviceLimiter;
  log: Logger;
  /** How often counts are written; 0: only when asked (tests call `flush`). */
  everyMs?: number;
}

/**
 * Writes a gateway process's device counts into `device_ingest_days` (docs/device-protocol.md,
 * "Limits") in batches, reads back each device's day as every process has counted it, and tells
 * the organisation of a device over its limits, once per device and UTC day: the row's
 * `notified_at` is set by a conditional update in the transaction that writes the notifications,
 * so however many processes, restarts and refusals there are, one of them writes them once.
 */
export class UsageRecorder {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;

  constructor(private readonly options: UsageRecorderOptions) {
    const everyMs = options.everyMs ?? EVERY_MS;
    if (everyMs > 0) {
      this.timer = setInterval(() => void this.flush(), everyMs);
      this.timer.unref();
    }
  }

  /** Writes what is due (everything with `all`); one write at a time; failures are logged and retried next time. */
  flush(all = false): Promise<void> {
    const previous = this.running ?? Promise.resolve();
    const next = previous.then(() => this.write(all));
    this.running = next.finally(() => {
      if (this.running === next) this.running = undefined;
    });
    return next;
  }

  /** Stops the timer and writes every count held. */
  async close(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.flush(true);
  }

  private async write(all: boolean) {
    const { db, limiter, log } = this.options;
    try {
      await this.readUnknownDays();
    } catch (error) {
      log.warn({ err: error }, 'device limits: the day counts could not be read');
    }
    const deltas = limiter.dueDeltas(all);
    if (deltas.length === 0) return;
    try {
      const totals = await db.transaction().execute(async (trx) => {
        const stored = await upsertDays(trx, deltas);
        await notifyOverLimit(trx, limiter, deltas);
        return stored;
      });
      const written = new Map(deltas.map((delta) => [`${delta.deviceId}/${delta.day}`, delta.samples]));
      for (const row of totals)
        limiter.stored(
          row.device_id,
          row.day,
          Number(row.samples),
          written.get(`${row.device_id}/${row.day}`) ?? 0,
        );
    } catch (error) {
      limiter.restore(deltas);
      log.warn({ err: error }, 'device limits: counts not written; trying again');
    }
  }

  /** Today's count of devices this process has not read yet, so their daily limit starts from it. */
  private async readUnknownDays() {
    const { db, limiter } = this.options;
    const byDay = new Map<string, number[]>();
    for (const { deviceId, day } of limiter.unknownDays()) {
      let ids = byDay.get(day);
      if (!ids) byDay.set(day, (ids = []));
      ids.push(deviceId);
    }
    for (const [day, ids] of byDay) {
      for (let start = 0; start < ids.length; start += CHUNK) {
        const chunk = ids.slice(start, start + CHUNK);
        const rows = await db
          .selectFrom('device_ingest_days')
          .select(['device_id', 'samples'])
          .where('day', '=', day)
          .where('device_id', 'in', chunk)
          .execute();
        const found = new Map(rows.map((row) => [row.device_id, Number(row.samples)]));
        for (const id of chunk) limiter.stored(id, day, found.get(id) ?? 0, 0);
      }
    }
  }
}

/** Adds the deltas to their rows (in key order, so processes lock rows in the same order); returns the totals. */
async function upsertDays(trx: Transaction<Database>, deltas: readonly DayDelta[]) {
  const totals = [];
  for (let start = 0; start < deltas.length; start += CHUNK) {
    const rows = deltas.slice(start, start + CHUNK).map((delta) => ({
      device_id: delta.deviceId,
      day: delta.day,
      organisation_id: delta.organisationId,
      samples: delta.samples,
      refused: delta.refused,
      last_refused_ts: delta.lastRefusedTs,
      last_reason: delta.lastReason,
    }));
    const newer = sql<boolean>`excluded.last_refused_ts > coalesce(device_ingest_days.last_refused_ts, 0)`;
    totals.push(
      ...(await trx
        .insertInto('device_ingest_days')
        .values(rows)
        .onConflict((oc) =>
          oc.columns(['device_id', 'day']).doUpdateSet((eb) => ({
            samples: eb('device_ingest_days.samples', '+', eb.ref('excluded.samples')),
            refused: eb('device_ingest_days.refused', '+', eb.ref('excluded.refused')),
            last_refused_ts: sql<
              number | null
            >`case when ${newer} then excluded.last_refused_ts else device_ingest_days.last_refused_ts end`,
            last_reason: sql<
              string | null
            >`case when ${newer} then excluded.last_reason else device_ingest_days.last_reason end`,
          })),
        )
        .returning(['device_id', 'day', 'samples'])
        .execute()),
    );
  }
  return totals;
}

/**
 * "The device sends more than its limit", once per device and UTC day, to the users of its
 * organisation who are told of device events, each in their language. The row's `notified_at`,
 * set only where it is still null, decides which process writes them.
 */
async function notifyOverLimit(
  trx: Transaction<Database>,
  limiter: DeviceLimiter,
  deltas: readonly DayDelta[],
) {
  const refusedByDay = new Map<string, number[]>();
  for (const delta of deltas) {
    if (delta.refused === 0) continue;
    let ids = refusedByDay.get(delta.day);
    if (!ids) refusedByDay.set(delta.day, (ids = []));
    ids.push(delta.deviceId);
  }
  const nowIso = new Date().toISOString();
  for (const [day, ids] of refusedByDay) {
    for (let start = 0; start < ids.length; start += CHUNK) {
      const claimed = await trx
        .updateTable('device_ingest_days')
        .set({ notified_at: nowIso })
        .where('day', '=', day)
        .where('device_id', 'in', ids.slice(start, start + CHUNK))
        .where('refused', '>', 0)
        .where('notified_at', 'is', null)
        .returning(['device_id', 'organisation_id', 'last_reason'])
        .execute();
      if (claimed.length === 0) continue;
      const names = new Map(
        (
          await trx
            .selectFrom('devices')
            .select(['id', 'name', 'organisation_id'])
            .where(
              'id',
              'in',
              claimed.map((row) => row.device_id),
            )
            .execute()
        ).map((row) => [row.id, row]),
      );
      for (const row of claimed) {
        const device = names.get(row.device_id);
        if (!device || device.organisation_id !== row.organisation_id) continue; // deleted meanwhile
        const reason = (DEVICE_LIMIT_REASONS as readonly string[]).includes(row.last_reason ?? '')
          ? (row.last_reason as DeviceLimitReason)
          : 'rate';
        const recipients = await eventRecipients(trx, row.organisation_id);
        if (recipients.length === 0) continue;
        await trx
          .insertInto('notifications')
          .values(
            recipients.map((user) => ({
              organisation_id: row.organisation_id,
              user_id: user.id,
              kind: DEVICE_LIMIT_NOTIFICATION_KIND,
              severity: 'warning' as const,
              title: translate(user.locale, 'notification.device_limit_title'),
              body: translate(user.locale, 'notification.device_limit_body', {
                device: device.name,
                reason: deviceLimitReasonText(user.locale, reason, limiter.settings),
              }),
              device_id: row.device_id,
              event_id: null,
              created_at: nowIso,
              occurred_at: nowIso,
              read_at: null,
            })),
          )
          .execute();
      }
    }
  }
}
