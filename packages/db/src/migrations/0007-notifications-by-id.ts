import type { AnyDb } from './support.js';

/**
 * The notification lists and the Excel download walk a user's notifications newest first by id;
 * with only (user_id, created_at) SQLite sorted all of a user's rows for every page or chunk
 * (a million rows: 100 s for the download). (user_id, id) reads them in order.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createIndex('notifications_user_id_idx')
    .on('notifications')
    .columns(['user_id', 'id'])
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropIndex('notifications_user_id_idx').execute();
}
