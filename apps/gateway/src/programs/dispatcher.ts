import { randomUUID } from 'node:crypto';
import {
  PROGRAMS_PATH,
  PROGRAM_REPORT_TIMEOUT_MS,
  programFileName,
  type ProgramsCommand,
} from '@kontrol/contracts';
import type { Database } from '@kontrol/db';
import type { FastifyBaseLogger as Logger } from 'fastify';
import type { Kysely } from 'kysely';
import { deviceHoldings } from '@kontrol/domain';
import {
  claimQueued,
  claimRemovals,
  dueDevices,
  refreshQueued,
  releaseClaims,
  timeOutSending,
  type DueDevice,
} from './programs.repository.js';

/** How often the dispatcher looks for work when nobody kicks it. */
export const PROGRAM_DISPATCH_EVERY_MS = 2_000;

export interface ProgramDispatcherOptions {
  db: Kysely<Database>;
  log: Logger;
  /** Publishes a command on the device's `cmd` topic; false when no broker can take it now. */
  publish: (controllerId: string, command: ProgramsCommand) => Promise<boolean>;
  /** Of these devices, the ids of those that can be sent a command now (connected). */
  reachable: (devices: readonly DueDevice[]) => Promise<Set<number>>;
  everyMs?: number;
  /** A `sending` bind with no report after this long fails (`timeout`); removals are told again. */
  reportTimeoutMs?: number;
}

/** What one pass did. */
export interface DispatchPass {
  /** Deliveries that failed for want of a report. */
  timedOut: number;
  /** Commands published. */
  commands: number;
}

/**
 * Sends `programs` commands (docs/device-protocol.md, "Recipes"). It runs in the process that runs
 * MQTT, every couple of seconds, at once when kicked (a deploy in this process, a device that
 * connected): deliveries past the report timeout fail; then, for every device with queued binds
 * or removals due that is connected, its binds are claimed in the database (`sending`, `sent_ts`,
 * one attempt more; a conditional UPDATE, so two gateways never send the same bind) and one
 * command lists what to fetch and what to delete. A device that is not connected keeps its binds
 * queued: they go when it is back. Everything it knows is in the database, so several API
 * processes can deploy and a restart loses nothing.
 */
export class ProgramDispatcher {
  private readonly everyMs: number;
  reportTimeoutMs: number;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private closed = false;

  constructor(private readonly options: ProgramDispatcherOptions) {
    this.everyMs = options.everyMs ?? PROGRAM_DISPATCH_EVERY_MS;
    this.reportTimeoutMs = options.reportTimeoutMs ?? PROGRAM_REPORT_TIMEOUT_MS;
  }

  start(): void {
    if (this.timer || this.closed) return;
    this.timer = setInterval(() => void this.kick(), this.everyMs);
    this.timer.unref();
    void this.kick();
  }

  /**
   * Runs a pass now, or right after the one under way (which may have read the database before
   * the change that asked for this one). Resolves when that pass is done; never rejects.
   */
  kick(): Promise<void> {
    if (this.closed) return Promise.resolve();
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      do {
        this.again = false;
        try {
          await this.runOnce();
        } catch (error) {
          this.options.log.warn({ err: error }, 'recipe delivery pass failed');
        }
      } while (this.again && !this.closed);
    })().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  /** One pass at `now` (epoch ms; tests move the clock to see timeouts). */
  async runOnce(now = Date.now()): Promise<DispatchPass> {
    const { db } = this.options;
    const nowIso = new Date(now).toISOString();
    const cutoff = now - this.reportTimeoutMs;
    const timedOut = await timeOutSending(db, cutoff, nowIso);
    const due = await dueDevices(db, cutoff);
    let commands = 0;
    if (due.length > 0) {
      const reachable = await this.options.reachable(due);
      for (const device of due) {
        if (this.closed) break;
        if (reachable.has(device.id) && (await this.deliver(device, now, cutoff))) commands += 1;
      }
    }
    return { timedOut, commands };
  }

  /** Stops the timer and waits for the pass under way. */
  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    await this.running;
  }

  private async deliver(device: DueDevice, now: number, cutoff: number): Promise<boolean> {
    const { db, log } = this.options;
    const nowIso = new Date(now).toISOString();
    await refreshQueued(db, device.id, nowIso);
    const install = await claimQueued(db, device.id, now, nowIso);
    const remove = await claimRemovals(db, device.id, cutoff, now, nowIso);
    if (install.length === 0 && remove.length === 0) return false; // another gateway took them
    const claimed = { installIds: install.map((bind) => bind.id), removeIds: remove.map((bind) => bind.id) };
    let published = false;
    try {
      const holdings = await deviceHoldings(db, device.id);
      const command: ProgramsCommand = {
        type: 'programs',
        id: randomUUID(),
        set: holdings.set ? { id: holdings.set.id, crc: holdings.set.crc } : null,
        install: install.map((bind) => ({
          bind_id: bind.id,
          recipe_id: bind.recipe_id,
          file: programFileName(bind.recipe_id, bind.version),
          crc: bind.crc,
          size: bind.size,
          url: `${PROGRAMS_PATH}/${bind.id}`,
        })),
        remove: remove.map((bind) => ({
          bind_id: bind.id,
          file: programFileName(bind.recipe_id, bind.version),
        })),
      };
      published = await this.options.publish(device.controllerId, command);
      if (published)
        log.debug(
          { device: device.id, install: claimed.installIds, remove: claimed.removeIds },
          'programs command sent',
        );
    } catch (error) {
      log.warn({ err: error, device: device.id }, 'programs command not sent');
    }
    if (!published) await releaseClaims(db, claimed, now, nowIso);
    return published;
  }
}
