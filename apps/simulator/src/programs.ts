import { crc32 } from 'node:zlib';
import {
  PROGRAMS_PATH,
  crcHex,
  programsCommandSchema,
  type ProgramReport,
  type ProgramsCommand,
} from '@kontrol/contracts';
import { hashText, mix32 } from './random.js';
import { backoffMs, delay, silentLogger, type Logger } from './transport.js';

/**
 * The device side of recipe delivery (docs/device-protocol.md, "Recipes"), as a controller does
 * it: on a `programs` command it downloads each file over HTTP with its credential, stores it,
 * computes the CRC32 of what it stored and reports it; it deletes what it is told to remove and
 * reports that. A device may be set to corrupt what it stores (`failureRate`, a byte flipped), so
 * its CRC does not match and Kontrol marks the delivery failed.
 */
export interface ProgramDeviceOptions {
  controllerId: string;
  credential: string;
  /** Kontrol's base URL: the command's urls are paths under it. */
  baseUrl: string;
  /**
   * Probability (0–1) that a file is stored corrupted, read at every file (so it can change while
   * running). 0 never, 1 always; in between, a pure function of the seed, the device, the bind
   * and how many files it stored before: the same run corrupts the same files.
   */
  failureRate: () => number;
  seed?: number;
  logger?: Logger;
  /** Attempts per download or report before giving up on it (network errors, 5xx). Default 3. */
  maxAttempts?: number;
  retryInitialMs?: number;
  requestTimeoutMs?: number;
}

export interface ProgramCounters {
  /** `programs` commands handled (a redelivered command id is not handled again). */
  commands: number;
  /** Files stored and reported (corrupted ones included). */
  stored: number;
  /** Files stored with a byte flipped. */
  corrupted: number;
  /** Files deleted and reported. */
  removed: number;
  /** Downloads or reports that failed for good. */
  failures: number;
}

export interface ProgramDevice {
  /** Takes a command from the device's `cmd` topic; anything but a valid `programs` command is ignored. */
  handle(command: unknown): void;
  /** The files the device holds: name → bytes as stored. */
  files(): ReadonlyMap<string, Buffer>;
  counters(): ProgramCounters;
  /** Resolves when every command received so far is done (downloads and reports answered). */
  idle(): Promise<void>;
  /** Abandons what is under way. */
  stop(): Promise<void>;
}

/** Remembered command ids, so a redelivered command is not handled twice. */
const SEEN_COMMANDS = 64;

export function isProgramsCommand(command: unknown): boolean {
  return (
    typeof command === 'object' && command !== null && (command as { type?: unknown }).type === 'programs'
  );
}

export function createProgramDevice(options: ProgramDeviceOptions): ProgramDevice {
  const { controllerId } = options;
  const logger = options.logger ?? silentLogger;
  const maxAttempts = options.maxAttempts ?? 3;
  const retryInitialMs = options.retryInitialMs ?? 250;
  const requestTimeoutMs = options.requestTimeoutMs ?? 30_000;
  const seed = mix32(options.seed ?? 1, hashText(controllerId));
  const base = options.baseUrl.endsWith('/') ? options.baseUrl : `${options.baseUrl}/`;
  const stored = new Map<string, Buffer>();
  const seen: string[] = [];
  const counters: ProgramCounters = { commands: 0, stored: 0, corrupted: 0, removed: 0, failures: 0 };
  const abort = new AbortController();
  /** Commands run one after another, in the order they came. */
  let chain: Promise<void> = Promise.resolve();

  /** One request with retries on network errors and 5xx; undefined when it never got an answer. */
  async function request(path: string, init: RequestInit): Promise<Response | undefined> {
    const url = new URL(path.replace(/^\//, ''), base).toString();
    for (let attempt = 1; attempt <= maxAttempts && !abort.signal.aborted; attempt++) {
      try {
        const response = await fetch(url, {
          ...init,
          headers: { authorization: `Bearer ${options.credential}`, ...init.headers },
          signal: AbortSignal.any([abort.signal, AbortSignal.timeout(requestTimeoutMs)]),
        });
        if (response.status < 500 && response.status !== 429) return response;
        await response.body?.cancel();
        logger.warn(`${controllerId}: ${init.method ?? 'GET'} ${path}: HTTP ${response.status}`);
      } catch (error) {
        if (abort.signal.aborted) return undefined;
        logger.warn(`${controllerId}: ${init.method ?? 'GET'} ${path}: ${(error as Error).message}`);
      }
      if (attempt < maxAttempts) await delay(backoffMs(attempt, retryInitialMs, 5_000), abort.signal);
    }
    return undefined;
  }

  async function report(url: string, body: ProgramReport): Promise<void> {
    const response = await request(`${url}/report`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const text = response ? await response.text() : '';
    if (!response) counters.failures += 1;
    // 409: Kontrol no longer waits for this report (a new command follows); nothing to do.
    else if (!response.ok && response.status !== 409) {
      counters.failures += 1;
      logger.warn(`${controllerId}: report ${url}: HTTP ${response.status} ${text.slice(0, 200)}`);
    }
  }

  /** Whether this file is to be stored corrupted (see `failureRate`). */
  function corrupts(bindId: number): boolean {
    const rate = options.failureRate();
    if (rate <= 0) return false;
    if (rate >= 1) return true;
    return mix32(mix32(seed, bindId), counters.stored) / 4294967296 < rate;
  }

  async function install(item: ProgramsCommand['install'][number]): Promise<void> {
    const response = await request(item.url, { method: 'GET' });
    if (!response || !response.ok) {
      if (response) await response.body?.cancel();
      logger.warn(
        `${controllerId}: ${item.file} not downloaded (${response ? `HTTP ${response.status}` : 'no answer'})`,
      );
      if (abort.signal.aborted) return;
      counters.failures += 1;
      await report(item.url, { error: 'download_failed' });
      return;
    }
    const bytes = Buffer.from(await response.arrayBuffer());
    if (bytes.length > 0 && corrupts(item.bind_id)) {
      const at = mix32(seed, item.bind_id) % bytes.length;
      bytes[at] = (bytes[at] as number) ^ 0xff;
      counters.corrupted += 1;
      logger.info(`${controllerId}: ${item.file} stored corrupted (byte ${at} flipped)`);
    }
    stored.set(item.file, bytes);
    counters.stored += 1;
    await report(item.url, { crc: crcHex(crc32(bytes)) });
  }

  async function run(command: ProgramsCommand): Promise<void> {
    counters.commands += 1;
    for (const item of command.remove) {
      if (abort.signal.aborted) return;
      stored.delete(item.file);
      counters.removed += 1;
      await report(`${PROGRAMS_PATH}/${item.bind_id}`, { removed: true });
    }
    for (const item of command.install) {
      if (abort.signal.aborted) return;
      await install(item);
    }
  }

  return {
    handle(command) {
      if (!isProgramsCommand(command)) return;
      const parsed = programsCommandSchema.safeParse(command);
      if (!parsed.success) {
        logger.warn(`${controllerId}: a programs command that is not valid was ignored`);
        return;
      }
      if (seen.includes(parsed.data.id)) return; // a redelivery
      seen.push(parsed.data.id);
      if (seen.length > SEEN_COMMANDS) seen.shift();
      chain = chain
        .then(() => run(parsed.data))
        .catch((error: unknown) => {
          logger.error(`${controllerId}: programs command failed: ${(error as Error).message}`);
        });
    },
    files: () => stored,
    counters: () => ({ ...counters }),
    idle: () => chain,
    async stop() {
      abort.abort();
      await chain;
    },
  };
}
