// A day of life for a seeded fleet (test-support/server.mjs seedFleetAndSignIn), written straight into
// its database (SQLite or PostgreSQL) as the gateway and the rules would have written it: every
// smart device's live row (most reporting within the last minute, one in eight silent for more than
// a day, work started), a week of completed washes, and open device events (a fault on one device
// in twenty, the "no data" event of each silent one). Used by the dashboard, the chain fleet and the
// API list benchmarks.
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import pg from 'pg';

const MINUTE = 60_000;

/** Rows written per PostgreSQL statement. */
const BATCH = 1000;

/**
 * Writes rows into tables of the database at `databaseUrl` in one transaction: SQLite through one
 * prepared statement per table, PostgreSQL in multi-row inserts.
 * @param {string} databaseUrl
 * @param {(read: (sql: string, params: unknown[]) => Promise<any[]>) => Promise<Record<string, { columns: string[], rows: unknown[][] }>>} plan
 */
async function writeInto(databaseUrl, plan) {
  if (databaseUrl.startsWith('sqlite:')) {
    const db = new Database(fileURLToPath(new URL(databaseUrl.replace(/^sqlite:/, 'file://'))));
    try {
      const tables = await plan(async (query, params) => db.prepare(query).all(...params));
      db.transaction(() => {
        for (const [table, { columns, rows }] of Object.entries(tables)) {
          const insert = db.prepare(
            `insert into ${table} (${columns.join(', ')}) values (${columns.map(() => '?').join(', ')})`,
          );
          for (const row of rows) insert.run(...row);
        }
      })();
    } finally {
      db.close();
    }
    return;
  }
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const tables = await plan(async (query, params) => {
      let n = 0;
      return (
        await client.query(
          query.replace(/\?/g, () => `$${(n += 1)}`),
          params,
        )
      ).rows;
    });
    await client.query('begin');
    for (const [table, { columns, rows }] of Object.entries(tables)) {
      for (let start = 0; start < rows.length; start += BATCH) {
        const batch = rows.slice(start, start + BATCH);
        const values = batch
          .map((_, r) => `(${columns.map((__, c) => `$${r * columns.length + c + 1}`).join(', ')})`)
          .join(', ');
        await client.query(`insert into ${table} (${columns.join(', ')}) values ${values}`, batch.flat());
      }
    }
    await client.query('commit');
  } finally {
    await client.end();
  }
}

/**
 * @param {string} databaseUrl `sqlite:<file>` or `postgres://…`
 * @param {number} organisationId
 * @returns {Promise<number>} the smart devices given a life
 */
export async function liven(databaseUrl, organisationId) {
  let smart = 0;
  await writeInto(databaseUrl, async (read) => {
    const now = Date.now();
    const devices = await read(
      `select devices.id, devices.template_id, device_types.wash_interval_hours as wash
         from devices join device_types on device_types.id = devices.type_id
        where organisation_id = ? and controller_id is not null order by devices.id`,
      [organisationId],
    );
    smart = devices.length;
    const live = [];
    const washes = [];
    const events = [];
    const iso = new Date(now).toISOString();
    const today = iso.slice(0, 10);
    devices.forEach((device, index) => {
      // Most report every few seconds; one in eight has been silent for more than a day.
      const ago = index % 8 === 0 ? 1500 * MINUTE + index * 1000 : (index % 60) * 1000;
      const last = now - ago;
      live.push([
        device.id,
        last,
        new Date(last).toISOString(),
        12.5,
        160,
        3,
        today,
        index % 4 === 0 ? '10:45' : '07:55',
      ]);
      if (device.wash !== null) {
        for (let day = 1; day <= 7; day += 1) {
          if (index % 5 === 0 && day === 1) continue; // one in five skipped yesterday's wash
          const start = now - day * 24 * 60 * MINUTE - (index % 90) * MINUTE;
          washes.push([device.id, start, start + 90 * MINUTE, 'completed']);
        }
      }
      if (device.template_id === null) return;
      const open = (key, kind, severity, details, since) =>
        events.push([
          organisationId,
          device.id,
          device.template_id,
          key,
          `${device.template_id}:${key}`,
          kind,
          severity,
          details,
          since,
          iso,
          iso,
        ]);
      if (index % 20 === 0) open('fault', 'error_code', 'critical', '{"code":"E34"}', now - 3600_000);
      // The silent ones already have the "no data" event the rules would have opened (the demo
      // templates' rule `silent`): the first check after the start finds nothing new to open, so
      // the stat is measured at rest, not while hundreds of events are being raised.
      if (index % 8 === 0) open('silent', 'no_data', 'warning', '{"minutes":60}', last);
    });
    return {
      device_live: {
        columns: [
          'device_id',
          'last_ts',
          'last_online_at',
          'current',
          'temperature',
          'state',
          'work_start_date',
          'work_start_time',
        ],
        rows: live,
      },
      wash_cycles: { columns: ['device_id', 'started_ts', 'ended_ts', 'outcome'], rows: washes },
      device_events: {
        columns: [
          'organisation_id',
          'device_id',
          'template_id',
          'rule_key',
          'condition_key',
          'kind',
          'severity',
          'details',
          'started_ts',
          'created_at',
          'updated_at',
        ],
        rows: events,
      },
    };
  });
  return smart;
}
