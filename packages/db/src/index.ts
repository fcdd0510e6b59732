export * from './create-db.js';
export * from './failures.js';
export * from './migrate.js';
export * from './reusable-query.js';
export * from './sample-partitions.js';
export type * from './schema.js';
