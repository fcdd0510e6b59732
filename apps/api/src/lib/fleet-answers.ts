import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';
import negotiate from '@fastify/accept-negotiator';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { CurrentUser } from '../modules/users/users.repository.js';

type Encoding = 'br' | 'gzip';
const ENCODINGS: Encoding[] = ['br', 'gzip'];
const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);
/**
 * Compressed on libuv's thread pool, not the event loop: brotli holds the thread about 12 ms for
 * the 1.6 MB stat answer of 5 000 devices, ten times that for a chain's fleet, and the answer is
 * built again whenever the fleet's events change.
 */
const COMPRESS: Record<Encoding, (json: Buffer) => Promise<Buffer>> = {
  br: (json) => brotli(json, { params: { [zlib.BROTLI_PARAM_QUALITY]: 4 } }),
  gzip: (json) => gzipped(json),
};
/** Smaller answers go out as they are (as @fastify/compress does, packages/server-kit/src/security.ts). */
const COMPRESS_THRESHOLD_BYTES = 1024;
/** What this process keeps at most, over every organisation. */
export const FLEET_ANSWERS_MAX_BYTES = 64 * 1024 * 1024;

interface Entry {
  /** The organisation and URL it answers: a newer answer to the same supersedes it. */
  place: string;
  json: Buffer;
  /** Made once, on first demand; requests asking meanwhile wait for the same. */
  encoded: Partial<Record<Encoding, Promise<Buffer>>>;
  bytes: number;
  /** In {@link FleetAnswers.entries}, and so counted in its bytes. */
  kept: boolean;
  /** What it was built from beside its URL: the next window's request may be answered with it. */
  fleetVersion: number;
  window: number;
  variant: string;
}

interface Part {
  /** The fleet version and window it was read in. */
  key: string;
  /** When its window ends (epoch ms). */
  until: number;
  value: Promise<unknown>;
}

/**
 * Answers built from an organisation's fleet (the lists of its addresses, rooms and devices),
 * kept as the bytes that went out, for as long as the organisation's `fleet_version` has not moved.
 * The database moves that counter itself on every change of those tables (migration 0003), and the
 * request reads it in the same statement as its session (`CurrentUser.fleetVersion`), so an answer
 * is reused only when nothing it was built from has changed — in this process or any other — and
 * a change shows in the very next request. Keys hold the organisation, the version and the whole
 * URL with host and protocol (the paged links carry them); the route's module check comes first.
 *
 * A request that read an older version than one already seen (it began before a commit another
 * request saw) is answered fresh and not kept. Compressed forms are made once per entry, on first
 * demand, off the event loop. One answer is kept per organisation and URL: a new one (another version, window or
 * variant) drops the one it replaces, which no request would ask for again; least recently used
 * entries go first beyond {@link FLEET_ANSWERS_MAX_BYTES}.
 */
export class FleetAnswers {
  private readonly entries = new Map<string, Entry>();
  /** The key of the answer kept for each organisation and URL. */
  private readonly kept = new Map<string, string>();
  private readonly versions = new Map<number, number>();
  /** Answers being built now, by key: asked for again meanwhile, they are built once. */
  private readonly building = new Map<string, Promise<Entry>>();
  /** Values answers are built from, by organisation and name ({@link FleetAnswers.part}). */
  private readonly parts = new Map<string, Part>();
  private nextPartSweep = 0;
  private bytes = 0;

  constructor(private readonly maxBytes = FLEET_ANSWERS_MAX_BYTES) {}

  /**
   * Sends the kept answer for this request, or builds it with `build`, serialises it with the
   * route's schema and keeps it. `freshForMs`: the answer also holds what changes without the
   * fleet version moving (the gateway's `last_online` and `work_start` of devices), so it is kept
   * for that long at most: one answer per window of that length. While the next window's answer
   * is being built, requests are answered with the previous window's, when nothing else it was
   * built from has moved, so a window's turn holds no request up (such an answer is then at most
   * `freshForMs` plus one build old). `variant`: what else the answer was built from, read by the
   * caller (a version of other tables); another variant is another answer, always waited for.
   */
  async send(
    request: FastifyRequest,
    reply: FastifyReply,
    user: CurrentUser,
    build: () => Promise<unknown>,
    options: { freshForMs?: number; variant?: string } = {},
  ): Promise<FastifyReply> {
    const { organisationId, fleetVersion } = user;
    const known = this.versions.get(organisationId);
    if (known !== undefined && fleetVersion < known) {
      return reply.send(await build());
    }
    this.seeVersion(organisationId, fleetVersion);

    const window = options.freshForMs ? Math.floor(Date.now() / options.freshForMs) : 0;
    const variant = options.variant ?? '';
    const place = `${organisationId}\u0000${request.protocol}://${request.host}${request.url}`;
    const key = `${place}\u0000${fleetVersion}\u0000${window}\u0000${variant}`;
    let entry = this.entries.get(key);
    if (entry) {
      this.entries.delete(key); // most recently used last
      this.entries.set(key, entry);
    } else {
      // Requests that ask while the answer is being built wait for that build instead of
      // starting their own: a busy dashboard asks for the same answer many times a second.
      let building = this.building.get(key);
      const started = !building;
      if (!building) {
        building = this.build(key, { place, fleetVersion, window, variant }, organisationId, async () =>
          Buffer.from(reply.serialize(await build()) as string),
        );
        this.building.set(key, building);
      }
      const previous = this.previousWindow(place, fleetVersion, window, variant);
      if (previous) {
        // Nobody awaits this build: its failure is logged here, and the next request builds again.
        if (started)
          building.catch((error: unknown) =>
            request.log.error({ err: error }, 'building the next window of a kept answer failed'),
          );
        return this.reply(request, reply, previous);
      }
      entry = await building;
    }
    return this.reply(request, reply, entry);
  }

  /**
   * A value answers are built from (the fleet's rows), kept like an answer: for the fleet version
   * the request read and one window of `freshForMs`, one per organisation and `name`. Answers that
   * differ only in their variant (the dashboard's, at every device event) are then built from it
   * without reading the fleet again. A request that read an older version reads afresh and keeps
   * nothing; a failed read is not kept. Parts are plain objects, not counted in the byte budget:
   * they go with their window, so only organisations asked within the last window hold one.
   */
  async part<T>(user: CurrentUser, name: string, freshForMs: number, read: () => Promise<T>): Promise<T> {
    const { organisationId, fleetVersion } = user;
    const known = this.versions.get(organisationId);
    if (known !== undefined && fleetVersion < known) return read();
    this.seeVersion(organisationId, fleetVersion);

    const now = Date.now();
    if (now >= this.nextPartSweep) {
      for (const [place, part] of this.parts) if (part.until <= now) this.parts.delete(place);
      this.nextPartSweep = now + 1000;
    }
    const window = Math.floor(now / freshForMs);
    const place = `${organisationId}\u0000${name}`;
    const key = `${fleetVersion}\u0000${window}`;
    const kept = this.parts.get(place);
    if (kept?.key === key) return kept.value as Promise<T>;
    const value = read();
    const part: Part = { key, until: (window + 1) * freshForMs, value };
    this.parts.set(place, part);
    value.catch(() => {
      if (this.parts.get(place) === part) this.parts.delete(place);
    });
    return value;
  }

  /** Notes the fleet version a request read; a newer one drops what the organisation kept. */
  private seeVersion(organisationId: number, fleetVersion: number) {
    const known = this.versions.get(organisationId);
    if (known !== undefined && fleetVersion > known) this.forget(organisationId);
    this.versions.set(organisationId, fleetVersion);
  }

  /** The kept answer of the window before `window` for the same URL, version and variant. */
  private previousWindow(place: string, fleetVersion: number, window: number, variant: string) {
    const keptKey = this.kept.get(place);
    const kept = keptKey === undefined ? undefined : this.entries.get(keptKey);
    return kept?.fleetVersion === fleetVersion && kept.variant === variant && kept.window === window - 1
      ? kept
      : undefined;
  }

  private async build(
    key: string,
    built: Pick<Entry, 'place' | 'fleetVersion' | 'window' | 'variant'>,
    organisationId: number,
    serialise: () => Promise<Buffer>,
  ): Promise<Entry> {
    try {
      const json = await serialise();
      const entry: Entry = { ...built, json, encoded: {}, bytes: json.length, kept: false };
      // Kept unless a newer version was seen while this one was being built.
      if (this.versions.get(organisationId) === built.fleetVersion) this.remember(key, entry);
      return entry;
    } finally {
      this.building.delete(key);
    }
  }

  /** How many bytes are kept now (for tests and metrics). */
  get size() {
    return this.bytes;
  }

  private async reply(request: FastifyRequest, reply: FastifyReply, entry: Entry) {
    reply.type('application/json; charset=utf-8');
    reply.header('vary', 'accept-encoding');
    const accepted = request.headers['accept-encoding'];
    const encoding =
      entry.json.length >= COMPRESS_THRESHOLD_BYTES && typeof accepted === 'string'
        ? negotiate(accepted, ENCODINGS)
        : null;
    if (!encoding) return reply.send(entry.json);
    let encoded = entry.encoded[encoding];
    if (!encoded) {
      encoded = COMPRESS[encoding](entry.json).then(
        (body) => {
          entry.bytes += body.length;
          if (entry.kept) this.bytes += body.length;
          return body;
        },
        (error: unknown) => {
          delete entry.encoded[encoding]; // the next request tries again
          throw error;
        },
      );
      entry.encoded[encoding] = encoded;
    }
    const body = await encoded;
    reply.header('content-encoding', encoding);
    return reply.send(body);
  }

  private remember(key: string, entry: Entry) {
    // The answer it replaces (built by a request that ran beside this one, or for the same URL
    // before: an older window or variant) goes even when this one is not kept: no request asks
    // for it again.
    const replacedKey = this.kept.get(entry.place);
    const replaced = replacedKey === undefined ? undefined : this.entries.get(replacedKey);
    if (replaced) this.drop(replacedKey as string, replaced);
    if (entry.bytes > this.maxBytes / 4) return; // one answer never takes the whole room
    this.entries.set(key, entry);
    this.kept.set(entry.place, key);
    entry.kept = true;
    this.bytes += entry.bytes;
    for (const [oldest, old] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.drop(oldest, old);
    }
  }

  private drop(key: string, entry: Entry) {
    this.entries.delete(key);
    if (this.kept.get(entry.place) === key) this.kept.delete(entry.place);
    entry.kept = false;
    this.bytes -= entry.bytes;
  }

  private forget(organisationId: number) {
    const prefix = `${organisationId}\u0000`;
    for (const [key, entry] of this.entries) {
      if (key.startsWith(prefix)) this.drop(key, entry);
    }
    for (const place of this.parts.keys()) if (place.startsWith(prefix)) this.parts.delete(place);
  }
}
