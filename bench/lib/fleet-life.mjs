// A day of life for a seeded fleet (test-support/server.mjs seedFleetAndSignIn), written straight into
// its SQLite database as the gateway and the rules would have written it: every smart device's live
// row (most reporting within the last minute, one in eight silent for more than a day, work
// started), a week of completed washes, and open device events (a fault on one device in twenty,
// the "no data" event of each silent one). Used by the dashboard and the API list benchmarks.
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';

const MINUTE = 60_000;

/**
 * @param {string} databaseUrl `sqlite:<file>`
 * @param {number} organisationId
 * @returns {number} the smart devices given a life
 */
export function liven(databaseUrl, organisationId) {
  const db = new Database(fileURLToPath(new URL(databaseUrl.replace(/^sqlite:/, 'file://'))));
  const now = Date.now();
  const devices = db
    .prepare(
      `select devices.id, devices.template_id, device_types.wash_interval_hours as wash
         from devices join device_types on device_types.id = devices.type_id
        where organisation_id = ? and controller_id is not null order by devices.id`,
    )
    .all(organisationId);
  const live = db.prepare(
    `insert into device_live (device_id, last_ts, last_online_at, current, temperature, state, work_start_date, work_start_time)
     values (?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const wash = db.prepare(
    'insert into wash_cycles (device_id, started_ts, ended_ts, outcome) values (?, ?, ?, ?)',
  );
  const event = db.prepare(
    `insert into device_events (organisation_id, device_id, template_id, rule_key, condition_key, kind, severity,
       details, value, started_ts, created_at, updated_at)
     values (?, ?, ?, ?, ?, ?, ?, ?, null, ?, ?, ?)`,
  );
  const iso = new Date(now).toISOString();
  const today = iso.slice(0, 10);
  db.transaction(() => {
    devices.forEach((device, index) => {
      // Most report every few seconds; one in eight has been silent for more than a day.
      const ago = index % 8 === 0 ? 1500 * MINUTE + index * 1000 : (index % 60) * 1000;
      const last = now - ago;
      live.run(
        device.id,
        last,
        new Date(last).toISOString(),
        12.5,
        160,
        3,
        today,
        index % 4 === 0 ? '10:45' : '07:55',
      );
      if (device.wash !== null) {
        for (let day = 1; day <= 7; day += 1) {
          if (index % 5 === 0 && day === 1) continue; // one in five skipped yesterday's wash
          const start = now - day * 24 * 60 * MINUTE - (index % 90) * MINUTE;
          wash.run(device.id, start, start + 90 * MINUTE, 'completed');
        }
      }
      if (device.template_id === null) return;
      const open = (key, kind, severity, details, since) =>
        event.run(
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
        );
      if (index % 20 === 0) open('fault', 'error_code', 'critical', '{"code":"E34"}', now - 3600_000);
      // The silent ones already have the "no data" event the rules would have opened (the demo
      // templates' rule `silent`): the first check after the start finds nothing new to open, so
      // the stat is measured at rest, not while hundreds of events are being raised.
      if (index % 8 === 0) open('silent', 'no_data', 'warning', '{"minutes":60}', last);
    });
  })();
  db.close();
  return devices.length;
}
