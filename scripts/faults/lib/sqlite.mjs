// Reading a SQLite database the server wrote, from outside (better-sqlite3).

/**
 * The sample times stored for a device.
 * @param {import('better-sqlite3').Database} db
 * @param {number} deviceId
 * @returns {Set<number>}
 */
export function storedTimes(db, deviceId) {
  const rows = /** @type {{ ts: number }[]} */ (
    db.prepare('select ts from telemetry_samples where device_id = ?').all(deviceId)
  );
  return new Set(rows.map((row) => Number(row.ts)));
}
