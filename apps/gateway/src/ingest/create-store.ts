import type { DatabaseHandle } from '@kontrol/db';
import type { TelemetryStore } from './store.js';
import { PostgresTelemetryStore } from './store-postgres.js';
import { SqliteTelemetryStore } from './store-sqlite.js';

/** The telemetry store of the database's engine (store.ts says what differs). */
export function createTelemetryStore(database: DatabaseHandle): TelemetryStore {
  return database.driver.dialect === 'sqlite'
    ? new SqliteTelemetryStore(database.db, database.driver.sqlite)
    : new PostgresTelemetryStore(database.driver.pool, database.db);
}
