import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';
import negotiate from '@fastify/accept-negotiator';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { CurrentUser, ListVersions } from '../modules/users/users.repository.js';

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
/** What this process keeps at most, over every organisation, unless told otherwise (`KEPT_ANSWERS_MB`). */
export const KEPT_ANSWERS_MAX_BYTES = 128 * 1024 * 1024;

/** A kind of list whose counter the database moves ({@link ListVersions}). */
export type ListKind = keyof ListVersions;

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The route answers from kept bytes ({@link KeptAnswers}) with these options: a request whose
     * answer is kept is answered before its query is validated (the same URL passed when the answer
     * was built), and its handler calls `app.keptAnswers.send` without options.
     */
    kept?: KeepOptions;
  }
}

export interface KeepOptions {
  /** The kinds of list the answer is built from, beside its URL (its counters key it); the fleet by default. */
  from?: readonly ListKind[];
  /** The answer is the user's own (their notifications): kept per user as well as per organisation. */
  perUser?: boolean;
  /**
   * The answer also holds what changes without a counter moving (the gateway's `last_online` and
   * `work_start` of devices, "the last 24 hours"): it is kept for this long at most.
   */
  freshForMs?: number;
  /**
   * With `freshForMs`: how long past its window an answer may still be sent while the next one is
   * being built, when nothing else it was built from has moved; one window by default.
   */
  staleForMs?: number;
  /** What else the answer was built from, read by the caller; another variant is another answer. */
  variant?: string;
}

interface Entry {
  /** The organisation, user or not, locale and URL it answers: a newer answer to the same supersedes it. */
  place: string;
  organisationId: number;
  /** The kinds of list it was built from. */
  from: readonly ListKind[];
  json: Buffer;
  /** Made once, on first demand; requests asking meanwhile wait for the same. */
  encoded: Partial<Record<Encoding, Promise<Buffer>>>;
  bytes: number;
  /** In {@link KeptAnswers.entries}, and so counted in its bytes. */
  kept: boolean;
  /** What it was built from beside its URL (its kinds' counters, joined): the next window's request may be answered with it. */
  version: string;
  window: number;
  variant: string;
}

interface Part {
  /** The counters and window it was read in. */
  key: string;
  from: readonly ListKind[];
  /** When its window ends (epoch ms). */
  until: number;
  value: Promise<unknown>;
}

/**
 * Answers of lists (the fleet's addresses, rooms and devices, device groups, events, notifications,
 * recipes, complaints, users…) kept as the bytes that went out, for as long as the organisation's
 * counters of what they were built from have not moved. The database moves those counters itself on
 * every change of the tables behind them (migrations 0003 and 0016), and the request reads them in
 * the same statement as its session (`CurrentUser.versions`), so an answer is reused only when
 * nothing it was built from has changed — in this process or any other — and a change shows in the
 * very next request. Keys hold the organisation (and the user, for a user's own list), the
 * request's locale, the counters and the whole URL with host and protocol (the paged links carry
 * them); the route's module check comes first.
 *
 * A request that read an older counter than one already seen (it began before a commit another
 * request saw) is answered fresh and not kept. Compressed forms are made once per entry, on first
 * demand, off the event loop. One answer is kept per place (organisation, user, locale and URL): a
 * new one (other counters, window or variant) drops the one it replaces, which no request would ask
 * for again; least recently used entries go first beyond the bytes it may keep (`KEPT_ANSWERS_MB`,
 * {@link KEPT_ANSWERS_MAX_BYTES} by default), and an answer over a quarter of them is never kept.
 */
export class KeptAnswers {
  private readonly entries = new Map<string, Entry>();
  /** The key of the answer kept for each organisation and URL. */
  private readonly kept = new Map<string, string>();
  /** The newest counter seen, by organisation and kind. */
  private readonly versions = new Map<string, number>();
  /** Answers being built now, by key: asked for again meanwhile, they are built once. */
  private readonly building = new Map<string, Promise<Entry>>();
  /** Values answers are built from, by organisation and name ({@link KeptAnswers.part}). */
  private readonly parts = new Map<string, Part>();
  private nextPartSweep = 0;
  private bytes = 0;

  constructor(private readonly maxBytes = KEPT_ANSWERS_MAX_BYTES) {}

  /**
   * Sends the kept answer for this request, or builds it with `build`, serialises it with the
   * route's schema and keeps it ({@link KeepOptions}). With `freshForMs`, one answer is kept per
   * window of that length. While the next window's answer is being built, requests are answered
   * with the previous window's (or one that ended within `staleForMs`), when nothing else it was
   * built from has moved, so a window's turn holds no request up (such an answer is then at most
   * `freshForMs` plus `staleForMs` plus one build old). Another variant is another answer, always
   * waited for.
   */
  async send(
    request: FastifyRequest,
    reply: FastifyReply,
    user: CurrentUser,
    build: () => Promise<unknown>,
    options: KeepOptions = request.routeOptions.config.kept ?? {},
  ): Promise<FastifyReply> {
    const { organisationId } = user;
    const from = options.from ?? FLEET;
    if (!this.seeVersions(user, from)) return reply.send(await build());
    const { place, version, window, variant, key } = this.keyOf(request, user, options);
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
        building = this.build(
          key,
          { place, organisationId, from, version, window, variant },
          user,
          async () => Buffer.from(reply.serialize(await build()) as string),
        );
        this.building.set(key, building);
      }
      const previous = this.previousWindow(place, version, window, variant, options);
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
   * The kept answer of this request, sent, or undefined when none is kept for exactly what it read
   * (the route then validates and builds it, {@link KeptAnswers.send}). For a route's
   * `config.kept`, before its query is validated: {@link answerKeptFirst}.
   */
  answerKept(request: FastifyRequest, reply: FastifyReply, options: KeepOptions) {
    const user = request.user;
    if (!user || !this.seeVersions(user, options.from ?? FLEET)) return undefined;
    const { key } = this.keyOf(request, user, options);
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key); // most recently used last
    this.entries.set(key, entry);
    return this.reply(request, reply, entry);
  }

  /** Where an answer is kept for the request, and under which key for what it read. */
  private keyOf(request: FastifyRequest, user: CurrentUser, options: KeepOptions) {
    const version = versionOf(user, options.from ?? FLEET);
    const window = options.freshForMs ? Math.floor(Date.now() / options.freshForMs) : 0;
    const variant = options.variant ?? '';
    const place =
      `${user.organisationId}\u0000${options.perUser ? user.id : ''}\u0000${request.locale}\u0000` +
      `${request.protocol}://${request.host}${request.url}`;
    return {
      place,
      version,
      window,
      variant,
      key: `${place}\u0000${version}\u0000${window}\u0000${variant}`,
    };
  }

  /**
   * A value answers are built from (the fleet's rows), kept like an answer: for the counters of
   * `from` the request read and one window of `freshForMs`, one per organisation and `name`.
   * Answers that differ only in their variant (the dashboard's, at every device event) are then
   * built from it without reading the fleet again. A request that read an older counter reads
   * afresh and keeps nothing; a failed read is not kept. Parts are plain objects, not counted in the
   * byte budget: they go with their window, so only organisations asked within the last window hold one.
   */
  async part<T>(
    user: CurrentUser,
    name: string,
    freshForMs: number,
    read: () => Promise<T>,
    from: readonly ListKind[] = FLEET,
  ): Promise<T> {
    const { organisationId } = user;
    if (!this.seeVersions(user, from)) return read();

    const now = Date.now();
    if (now >= this.nextPartSweep) {
      for (const [place, part] of this.parts) if (part.until <= now) this.parts.delete(place);
      this.nextPartSweep = now + 1000;
    }
    const window = Math.floor(now / freshForMs);
    const place = `${organisationId}\u0000${name}`;
    const key = `${versionOf(user, from)}\u0000${window}`;
    const kept = this.parts.get(place);
    if (kept?.key === key) return kept.value as Promise<T>;
    const value = read();
    const part: Part = { key, from, until: (window + 1) * freshForMs, value };
    this.parts.set(place, part);
    value.catch(() => {
      if (this.parts.get(place) === part) this.parts.delete(place);
    });
    return value;
  }

  /**
   * Notes the counters of `from` a request read; a newer one drops what the organisation kept that
   * was built from its kind. False when one is older than a counter already seen: the request
   * began before a commit another request saw, so its answer is built afresh and not kept.
   */
  private seeVersions(user: CurrentUser, from: readonly ListKind[]): boolean {
    for (const kind of from) {
      const known = this.versions.get(`${user.organisationId}\u0000${kind}`);
      if (known !== undefined && user.versions[kind] < known) return false;
    }
    for (const kind of from) {
      const name = `${user.organisationId}\u0000${kind}`;
      const known = this.versions.get(name);
      if (known !== undefined && user.versions[kind] > known) this.forget(user.organisationId, kind);
      this.versions.set(name, user.versions[kind]);
    }
    return true;
  }

  /** Whether what `user` read of `from` is what was seen last (nothing newer came meanwhile). */
  private isNewest(user: CurrentUser, from: readonly ListKind[]) {
    return from.every(
      (kind) => this.versions.get(`${user.organisationId}\u0000${kind}`) === user.versions[kind],
    );
  }

  /**
   * The kept answer of an earlier window than `window` for the same place, counters and variant:
   * of the window before, or of one that ended less than `staleForMs` ago.
   */
  private previousWindow(
    place: string,
    version: string,
    window: number,
    variant: string,
    { freshForMs, staleForMs }: KeepOptions,
  ) {
    const keptKey = this.kept.get(place);
    const kept = keptKey === undefined ? undefined : this.entries.get(keptKey);
    const oldest = window - Math.max(1, Math.ceil((staleForMs ?? 0) / (freshForMs ?? 1)));
    return kept?.version === version &&
      kept.variant === variant &&
      kept.window < window &&
      kept.window >= oldest
      ? kept
      : undefined;
  }

  private async build(
    key: string,
    built: Pick<Entry, 'place' | 'organisationId' | 'from' | 'version' | 'window' | 'variant'>,
    user: CurrentUser,
    serialise: () => Promise<Buffer>,
  ): Promise<Entry> {
    try {
      const json = await serialise();
      const entry: Entry = { ...built, json, encoded: {}, bytes: json.length, kept: false };
      // The forms the answer it replaces was asked in are made before it replaces it: meanwhile
      // requests get that one at once, rather than wait for a chain's list to be compressed.
      const replaced = this.entries.get(this.kept.get(built.place) ?? '');
      if (replaced && json.length >= COMPRESS_THRESHOLD_BYTES)
        await Promise.all(
          (Object.keys(replaced.encoded) as Encoding[]).map((encoding) =>
            this.encode(entry, encoding).catch(() => undefined),
          ),
        );
      // Kept unless a newer counter was seen while this one was being built.
      if (this.isNewest(user, built.from)) this.remember(key, entry);
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
    const body = await this.encode(entry, encoding);
    reply.header('content-encoding', encoding);
    return reply.send(body);
  }

  /** The entry in `encoding`, made once on first demand. */
  private encode(entry: Entry, encoding: Encoding): Promise<Buffer> {
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
    return encoded;
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

  /** Drops what the organisation kept that was built from `kind`. */
  private forget(organisationId: number, kind: ListKind) {
    for (const [key, entry] of this.entries) {
      if (entry.organisationId === organisationId && entry.from.includes(kind)) this.drop(key, entry);
    }
    const prefix = `${organisationId}\u0000`;
    for (const [place, part] of this.parts)
      if (place.startsWith(prefix) && part.from.includes(kind)) this.parts.delete(place);
  }
}

const FLEET: readonly ListKind[] = ['fleet'];

/**
 * Answers the GET routes that declare `config.kept` from kept bytes before their query is
 * validated: a kept answer was built for the very same URL, which passed then. Register before
 * the routes (an `onRoute` hook sees only routes added after it).
 */
export function answerKeptFirst(app: FastifyInstance, answers: KeptAnswers) {
  app.addHook('onRoute', (route) => {
    const options = route.config?.kept;
    if (!options || route.method !== 'GET') return;
    if (options.variant !== undefined)
      throw new Error(`${route.url}: a kept variant is known only to the handler`);
    const hooks = route.preValidation;
    // Returns the reply when it answered (the chain ends there), else nothing: on to validation.
    const first = async (request: FastifyRequest, reply: FastifyReply) =>
      answers.answerKept(request, reply, options);
    route.preValidation = [first, ...(hooks === undefined ? [] : Array.isArray(hooks) ? hooks : [hooks])];
  });
}

/** The counters of `from` the request read, as one key. */
function versionOf(user: CurrentUser, from: readonly ListKind[]) {
  return from.map((kind) => user.versions[kind]).join('.');
}
