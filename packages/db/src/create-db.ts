import { accessSync, constants, existsSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';
import SQLite from 'better-sqlite3';
import {
  CompiledQuery,
  Kysely,
  PostgresDialect,
  SqliteAdapter,
  SqliteDialect,
  SqliteDriver,
  sql,
  type DatabaseConnection,
  type Driver,
  type LogConfig,
  type SqliteDatabase,
  type SqliteDialectConfig,
} from 'kysely';
import type pg from 'pg';
import type { Database } from './schema.js';

export type DialectName = 'sqlite' | 'postgres';

export interface DatabaseHandle {
  db: Kysely<Database>;
  dialect: DialectName;
  /**
   * The driver under Kysely, for the few hot paths that batch thousands of rows (the telemetry
   * ingest): better-sqlite3's connection, or the pg pool. Use the SQLite one only inside
   * `db.connection().execute(…)`, which holds Kysely's single connection, so no Kysely
   * transaction is open around it.
   */
  driver: { dialect: 'sqlite'; sqlite: SQLite.Database } | { dialect: 'postgres'; pool: pg.Pool };
  /** The URL without its password, for logs. */
  safeUrl: string;
  close(): Promise<void>;
}

/** Which engine a Kysely instance of {@link createDb} talks to, for the few statements that differ. */
export function dialectOf(db: Kysely<Database>): DialectName {
  return db.getExecutor().adapter instanceof SqliteAdapter ? 'sqlite' : 'postgres';
}

export interface CreateDbOptions {
  /** PostgreSQL pool size. */
  poolMax?: number;
  /** PostgreSQL: how long a pooled connection may stay idle before it is closed (default 10 minutes). */
  poolIdleMs?: number;
  /** PostgreSQL: told when an idle pooled connection fails (default: one line on stderr). */
  onIdleError?: (error: Error & { code?: string }) => void;
  log?: LogConfig;
}

/**
 * SQLite transactions take the write lock as they begin (`BEGIN IMMEDIATE`), waiting out the busy
 * timeout for it. A transaction begun with a plain `BEGIN` that reads and then writes fails at once
 * with "database is locked" when another process (the operator CLI beside the server) wrote in
 * between: SQLite cannot wait for a snapshot that is already stale.
 */
class ImmediateSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}

class ImmediateSqliteDialect extends SqliteDialect {
  readonly #config: SqliteDialectConfig;
  constructor(config: SqliteDialectConfig) {
    super(config);
    this.#config = config;
  }
  override createDriver(): Driver {
    return new ImmediateSqliteDriver(this.#config);
  }
}

/**
 * Opens the database named by `url`: `sqlite:<path>` (or `sqlite::memory:`) or `postgres://…`.
 * SQLite runs in WAL mode with `synchronous=FULL`, a 4 MB page cache, foreign keys on and Unicode `lower`/`upper`; PostgreSQL returns times as
 * ISO strings and 64-bit integers as numbers, so repositories see the same values on both.
 */
export function createDb(url: string, options: CreateDbOptions = {}): DatabaseHandle {
  if (url.startsWith('sqlite:')) return openSqlite(url, options);
  if (url.startsWith('postgres://') || url.startsWith('postgresql://')) return openPostgres(url, options);
  throw new Error(`DATABASE_URL must start with "sqlite:" or "postgres://", got "${url.split(':')[0]}:…"`);
}

function openSqlite(url: string, options: CreateDbOptions): DatabaseHandle {
  const location = url.slice('sqlite:'.length);
  const filename = location === ':memory:' ? location : resolve(location);
  if (filename !== ':memory:') mkdirSync(dirname(filename), { recursive: true });
  let database: SQLite.Database;
  try {
    database = new SQLite(filename);
  } catch (error) {
    throw cannotOpen(filename, error);
  }
  try {
    database.pragma('journal_mode = WAL');
    database.pragma('synchronous = FULL');
    database.pragma('foreign_keys = ON');
    database.pragma('busy_timeout = 5000');
  } catch (error) {
    database.close();
    throw cannotOpen(filename, error);
  }
  // better-sqlite3 is built with a 16 MB page cache per connection (SQLite's own default is 2 MB).
  // It filled up with the pages of the first large read (a CSV export: +17 MB of the server's
  // memory) while reads and ingest measured the same with 4 MB: the operating system caches the
  // file anyway.
  database.pragma('cache_size = -4000');
  // SQLite's own lower()/upper() fold Latin letters only; PostgreSQL's fold every script. The same
  // JavaScript folding here makes case-insensitive search behave alike on both (Cyrillic names).
  const fold = (change: (text: string) => string) => (value: unknown) =>
    typeof value === 'string' ? change(value) : value;
  database.function(
    'lower',
    { deterministic: true },
    fold((text) => text.toLowerCase()),
  );
  database.function(
    'upper',
    { deterministic: true },
    fold((text) => text.toUpperCase()),
  );
  const db = new Kysely<Database>({
    dialect: new ImmediateSqliteDialect({ database: withStatementCache(database) }),
    ...(options.log ? { log: options.log } : {}),
  });
  return {
    db,
    dialect: 'sqlite',
    driver: { dialect: 'sqlite', sqlite: database },
    safeUrl: `sqlite:${filename}`,
    close: () => db.destroy(),
  };
}

/**
 * Why a SQLite file could not be opened, in words an operator can act on: in WAL mode SQLite
 * creates `<file>-wal` and `<file>-shm` beside the database, so a read-only folder (a file system
 * remounted read-only, a folder the service may not write) stops it even from reading.
 */
function cannotOpen(filename: string, error: unknown): Error {
  const { code } = error as { code?: unknown };
  const what = typeof code === 'string' ? code : error instanceof Error ? error.message : 'failed';
  const writable = (path: string) => {
    try {
      accessSync(path, constants.W_OK);
      return undefined;
    } catch (failure) {
      return (failure as NodeJS.ErrnoException).code ?? 'not writable';
    }
  };
  const folder = dirname(filename);
  const folderFailure = writable(folder);
  const fileFailure = existsSync(filename) ? writable(filename) : undefined;
  let advice = '';
  if (folderFailure === 'EROFS' || fileFailure === 'EROFS') {
    advice = `: its file system is read-only (${folder}); SQLite must be able to write the database and create its -wal and -shm files beside it`;
  } else if (folderFailure) {
    advice = `: its folder ${folder} is not writable (${folderFailure}); SQLite must create its -wal and -shm files there`;
  } else if (fileFailure) {
    advice = `: the file is not writable (${fileFailure})`;
  }
  return new Error(`cannot open the SQLite database ${filename} (${what})${advice}`, {
    cause: error,
  });
}

/** Statements kept prepared, by SQL text; beyond this the least recently used is dropped. */
export const SQLITE_STATEMENT_CACHE_SIZE = 200;
/**
 * A statement with more parameters than this is prepared, run and left to the garbage collector.
 * Such texts are one-offs (`in (…)` lists and multi-row inserts as long as a batch): each length is
 * a text of its own, and a long one costs tens of kilobytes of native memory to keep.
 */
export const SQLITE_CACHED_PARAMETERS_MAX = 100;

/**
 * Kysely prepares every query anew, and with better-sqlite3 preparing costs far more than running
 * a small indexed query (measured: most of a signed-in request's database time). The same SQL
 * text (parameters are bound separately) reuses one prepared statement. Kysely runs one query at a
 * time on SQLite's single connection; should a statement still be busy (an unfinished stream),
 * the call prepares its own rather than fail. Exported for its test.
 */
export function withStatementCache(
  database: SQLite.Database,
): SqliteDatabase & { cachedStatements(): number } {
  // A Map iterates in insertion order: a hit is moved to the end, so the first key is the least
  // recently used.
  const cache = new Map<string, SQLite.Statement>();
  return {
    close: () => database.close(),
    cachedStatements: () => cache.size,
    prepare(text: string) {
      const cached = cache.get(text);
      if (cached) {
        cache.delete(text);
        cache.set(text, cached);
        if (!cached.busy) return cached;
        return database.prepare(text);
      }
      const statement = database.prepare(text);
      if (parameterCount(text) <= SQLITE_CACHED_PARAMETERS_MAX) {
        if (cache.size >= SQLITE_STATEMENT_CACHE_SIZE) {
          const oldest = cache.keys().next();
          if (!oldest.done) cache.delete(oldest.value);
        }
        cache.set(text, statement);
      }
      return statement;
    },
  };
}

/** Kysely writes every parameter as `?` on SQLite; a `?` inside a literal only makes a text look longer. */
function parameterCount(text: string): number {
  let count = 0;
  for (let at = text.indexOf('?'); at !== -1; at = text.indexOf('?', at + 1)) count += 1;
  return count;
}

/** See `openPostgres`: the error is the query's, or the next query's, to report. */
function ignoreCheckedOutError(): void {}

function warnIdleError(error: Error & { code?: string }) {
  console.warn(`PostgreSQL: an idle pooled connection failed (${error.code ?? 'no code'}): ${error.message}`);
}

const TIMESTAMPTZ_OID = 1184;
const TIMESTAMP_OID = 1114;
const INT8_OID = 20;

/**
 * pg, required by the first PostgreSQL database opened rather than imported by every process: a
 * server on SQLite never needs it (its ESM entry re-exports this same CommonJS module).
 */
let pgModule: typeof pg | undefined;
function loadPg(): typeof pg {
  pgModule ??= createRequire(import.meta.url)('pg') as typeof pg;
  return pgModule;
}

function pgTypeParser(oid: number, format?: string): (value: string) => unknown {
  if (oid === TIMESTAMPTZ_OID || oid === TIMESTAMP_OID)
    return (value) => new Date(oid === TIMESTAMP_OID ? `${value}Z` : value).toISOString();
  if (oid === INT8_OID) return (value) => Number(value);
  // pg's own parsers for everything else.
  const { types } = loadPg();
  const builtIn = types.getTypeParser as (oid: number, format?: string) => (value: string) => unknown;
  return builtIn(oid, format);
}

/** How long an idle pooled PostgreSQL connection is kept (DATABASE_POOL_IDLE_SECONDS). */
export const DEFAULT_POOL_IDLE_MS = 600_000;

function openPostgres(url: string, options: CreateDbOptions): DatabaseHandle {
  const pool = new (loadPg().Pool)({
    connectionString: url,
    max: options.poolMax ?? 10,
    // pg's own default closes a connection after 10 idle seconds, so a server whose load comes in
    // bursts opens new ones all day, each a new backend that plans its first queries with cold
    // catalog caches (docs/operations.md, "Database connections").
    idleTimeoutMillis: options.poolIdleMs ?? DEFAULT_POOL_IDLE_MS,
    types: { getTypeParser: pgTypeParser },
  });
  // An idle pooled connection the server ends (restart, failover, an administrator, a dropped
  // test database) makes the pool emit 'error'; unheard, that would end the whole process. The
  // pool drops the client and opens a new one on the next query, so this is only worth a line.
  pool.on('error', (error: Error & { code?: string }) => {
    (options.onIdleError ?? warnIdleError)(error);
  });
  // A connection that fails while it is checked out (a query in flight, a transaction between two
  // statements) also makes its client emit 'error', and the pool listens only to idle clients:
  // unheard, a database restart under load would end the process. The failure reaches whoever
  // uses the client (its query rejects, or the next one: "not queryable"), and the pool drops the
  // client when it comes back, so here it only has to be heard.
  pool.on('connect', (client) => {
    client.on('error', ignoreCheckedOutError);
  });
  const db = new Kysely<Database>({
    dialect: new PostgresDialect({ pool }),
    ...(options.log ? { log: options.log } : {}),
  });
  return {
    db,
    dialect: 'postgres',
    driver: { dialect: 'postgres', pool },
    safeUrl: url.replace(/\/\/([^:@/]+):[^@/]*@/, '//$1:***@'),
    close: () => db.destroy(),
  };
}

/** Resolves when the database answers a trivial query; rejects otherwise. */
export async function pingDb(db: Kysely<Database>): Promise<void> {
  await sql`select 1`.execute(db);
}
