export * from './create-db.js';
export * from './migrate.js';
export type * from './schema.js';
