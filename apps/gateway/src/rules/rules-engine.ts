import type { TelemetryKind } from '@kontrol/contracts';
import { dialectOf, type Database } from '@kontrol/db';
import { notifyEvent, parseNorms, parseRules } from '@kontrol/domain';
import type { FastifyBaseLogger as Logger } from 'fastify';
import type { Kysely } from 'kysely';
import type { StoredSample } from '../ingest/derive.js';
import { evaluate, noDataDue, type Opened, type RuleTemplate } from './evaluate.js';
import {
  closeRuleEvent,
  lockRuleStates,
  noDataCandidates,
  openConditions,
  openRuleEvent,
  saveRuleState,
  templatedDevices,
  type TemplatedDevice,
} from './event-store.js';

export interface RulesEngineOptions {
  db: Kysely<Database>;
  log: Logger;
  /** How often `no_data` rules are checked (ms); 0 turns the timer off (tests call `checkNoData`). */
  noDataEveryMs?: number;
  /** Told after events opened or closed (live updates, tests). */
  onEvents?: (change: { opened: number; closed: number }) => void;
  now?: () => number;
}

/** Most samples waiting for the rules; beyond it the oldest waiting device's are dropped (and logged). */
const MAX_WAITING_SAMPLES = 500_000;
/**
 * Devices found without a template are not looked up again for this long: most of a fleet may
 * have none, and ingest should not pay a query per batch for them. A device given a template is
 * watched from its samples after at most this long.
 */
export const NO_TEMPLATE_RECHECK_MS = 10_000;

/**
 * Runs the current templates' rules on committed samples (docs/events.md). The ingest pipeline
 * hands over each committed batch; the engine works after the commit, one pass at a time, so
 * ingest never waits for rules. What arrives during a pass waits for the next one.
 *
 * A pass reads which of the batch's devices have a template (one query; devices without one cost
 * nothing more), then in one transaction locks their rule states, evaluates the new samples and
 * writes the state, the events that opened or closed and their notifications. The state lives in
 * the database, so a restarted gateway, or another one receiving the device's next samples, goes
 * on from it; the unique index on open events keeps any race from opening an event twice.
 */
export class RulesEngine {
  private waiting = new Map<number, StoredSample[]>();
  private waitingSamples = 0;
  private running: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private closed = false;
  private readonly now: () => number;
  private readonly postgres: boolean;
  /** Devices seen without a template since `untemplatedSince`. */
  private untemplated = new Set<number>();
  private untemplatedSince = 0;

  constructor(private readonly options: RulesEngineOptions) {
    this.now = options.now ?? Date.now;
    this.postgres = dialectOf(options.db) === 'postgres';
    const every = options.noDataEveryMs ?? 30_000;
    if (every > 0) {
      this.timer = setInterval(() => void this.checkNoData().catch((error) => this.failed(error)), every);
      this.timer.unref();
    }
  }

  /** Samples waiting for the next pass (metrics). */
  get pending(): number {
    return this.waitingSamples;
  }

  /** Samples that were stored (never redeliveries): queued for the next pass. */
  enqueue(samples: readonly StoredSample[]): void {
    if (this.closed || samples.length === 0) return;
    for (const sample of samples) {
      let list = this.waiting.get(sample.deviceId);
      if (!list) this.waiting.set(sample.deviceId, (list = []));
      list.push(sample);
    }
    this.waitingSamples += samples.length;
    while (this.waitingSamples > MAX_WAITING_SAMPLES) {
      const [deviceId, list] = this.waiting.entries().next().value as [number, StoredSample[]];
      this.waiting.delete(deviceId);
      this.waitingSamples -= list.length;
      this.options.log.warn({ deviceId, samples: list.length }, 'rules: too much waiting; samples skipped');
    }
    this.kick();
  }

  /** Resolves when everything queued so far has been evaluated. */
  async idle(): Promise<void> {
    while (this.running || this.waiting.size > 0) {
      if (!this.running) this.kick();
      await this.running;
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    await this.idle();
  }

  private kick() {
    if (this.running || this.waiting.size === 0) return;
    const batch = this.waiting;
    this.waiting = new Map();
    this.waitingSamples = 0;
    this.running = this.serial(() => this.pass(batch)).finally(() => {
      this.running = undefined;
      if (this.waiting.size > 0 && !this.closed) this.kick();
    });
  }

  private chain: Promise<unknown> = Promise.resolve();

  /** Passes and no-data checks run one at a time. */
  private serial<T>(work: () => Promise<T>): Promise<T> {
    const next = this.chain.then(work, work);
    this.chain = next.catch(() => undefined);
    return next;
  }

  private failed(error: unknown) {
    this.options.log.error({ err: error }, 'rules: a pass failed; its samples were not evaluated');
  }

  private async pass(batch: Map<number, StoredSample[]>): Promise<void> {
    try {
      const devices = await this.withTemplates([...batch.keys()]);
      if (devices.length === 0) return;
      let opened = 0;
      let closed = 0;
      const now = this.now();
      const nowIso = new Date(now).toISOString();
      await this.options.db.transaction().execute(async (trx) => {
        const ids = devices.map((device) => device.id);
        const states = await lockRuleStates(trx, ids, this.postgres, now);
        const open = await openConditions(trx, ids);
        for (const device of devices) {
          const samples = (batch.get(device.id) as StoredSample[]).sort((a, b) => a.ts - b.ts);
          const template = toTemplate(device);
          const result = evaluate(
            template,
            reportsState(device),
            states.get(device.id) ?? {},
            open.get(device.id) ?? new Set(),
            samples,
          );
          for (const change of result.transitions) {
            if (change.type === 'close') {
              await closeRuleEvent(trx, device.id, change.end.conditionKey, change.end.endedTs, nowIso);
              closed += 1;
            } else if (await this.open(trx, device, change.event, nowIso)) opened += 1;
          }
          // Most batches change no condition: the state is written only when one started or ended.
          if (!sameConditions(states.get(device.id), result.conditions))
            await saveRuleState(trx, device.id, template.id, result.conditions, now);
        }
      });
      if (opened + closed > 0) this.options.onEvents?.({ opened, closed });
    } catch (error) {
      this.failed(error);
    }
  }

  /** The devices among `ids` that have a template (those known to have none are skipped). */
  private async withTemplates(ids: readonly number[]): Promise<TemplatedDevice[]> {
    const now = this.now();
    if (now - this.untemplatedSince >= NO_TEMPLATE_RECHECK_MS) {
      this.untemplated = new Set();
      this.untemplatedSince = now;
    }
    const unknown = ids.filter((id) => !this.untemplated.has(id));
    if (unknown.length === 0) return [];
    const devices = await templatedDevices(this.options.db, unknown);
    const found = new Set(devices.map((device) => device.id));
    for (const id of unknown) if (!found.has(id)) this.untemplated.add(id);
    return devices;
  }

  /**
   * Opens `no_data` events of devices silent for longer than their rules allow. Every gateway
   * may run it; the unique index lets only one open each event.
   */
  async checkNoData(): Promise<number> {
    return this.serial(async () => {
      const now = this.now();
      const nowIso = new Date(now).toISOString();
      const candidates = await noDataCandidates(this.options.db);
      if (candidates.length === 0) return 0;
      const open = await openConditions(
        this.options.db,
        candidates.map((device) => device.id),
      );
      let opened = 0;
      for (const device of candidates) {
        const due = noDataDue(
          toTemplate(device),
          Number(device.last_ts),
          open.get(device.id) ?? new Set(),
          now,
        );
        for (const event of due) {
          const done = await this.options.db
            .transaction()
            .execute((trx) => this.open(trx, device, event, nowIso));
          if (done) opened += 1;
        }
      }
      if (opened > 0) this.options.onEvents?.({ opened, closed: 0 });
      return opened;
    });
  }

  private async open(db: Kysely<Database>, device: TemplatedDevice, event: Opened, nowIso: string) {
    const id = await openRuleEvent(
      db,
      {
        organisationId: device.organisation_id,
        deviceId: device.id,
        deviceName: device.name,
        templateId: device.template_id,
        conditionKey: event.conditionKey,
        rule: event.rule,
        startedTs: event.startedTs,
        value: event.value,
        details: event.details,
      },
      nowIso,
    );
    if (id === undefined) return false;
    await notifyEvent(
      db,
      {
        id,
        organisationId: device.organisation_id,
        deviceId: device.id,
        deviceName: device.name,
        kind: event.rule.kind,
        severity: event.rule.severity,
        title: null,
        description: null,
        details: event.details,
        value: event.value,
        startedTs: event.startedTs,
      },
      nowIso,
    );
    return true;
  }
}

function toTemplate(device: Pick<TemplatedDevice, 'template_id' | 'norms' | 'rules'>): RuleTemplate {
  return { id: device.template_id, norms: parseNorms(device.norms), rules: parseRules(device.rules) };
}

function reportsState(device: Pick<TemplatedDevice, 'telemetry'>): boolean {
  return (JSON.parse(device.telemetry) as TelemetryKind[]).includes('state');
}

function sameConditions(before: Record<string, number> | undefined, after: Record<string, number>): boolean {
  const keys = Object.keys(after);
  if (!before || Object.keys(before).length !== keys.length) return false;
  return keys.every((key) => before[key] === after[key]);
}
