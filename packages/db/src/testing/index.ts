/** For tests only (`@kontrol/db/testing`): a fresh migrated database per test file, on either engine. */
export { createTestDatabase, testDialect, type TestDatabase } from './test-database.js';
