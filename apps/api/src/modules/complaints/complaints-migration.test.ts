import {
  migrateTo,
  migrateToLatest,
  type ComplaintEventsTable,
  type ComplaintPhotosTable,
  type ComplaintsTable,
  type Database,
  type NotificationsTable,
} from '@kontrol/db';
import { sql, type Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import { buildDevice, buildOrganisation } from '../../test/builders.js';
import { createTestDatabase, testDialect } from '@kontrol/db/testing';

/** The tables as the code before migration 0015 named them. */
interface Before {
  alerts: ComplaintsTable;
  alert_events: Omit<ComplaintEventsTable, 'complaint_id'> & { alert_id: number };
  alert_photos: ComplaintPhotosTable;
  notifications: Omit<NotificationsTable, 'complaint_id'> & { alert_id: number | null };
}

/** The names of the indexes on `tables`, sorted. */
async function indexNames(db: Kysely<Database>, tables: string[]): Promise<string[]> {
  const list = sql.join(tables.map((table) => sql.lit(table)));
  const { rows } =
    testDialect() === 'postgres'
      ? await sql<{ name: string }>`
          select indexname as name from pg_indexes
          where tablename in (${list}) and indexname not like '%_pkey'`.execute(db)
      : await sql<{ name: string }>`
          select name from sqlite_master
          where type = 'index' and tbl_name in (${list}) and name not like 'sqlite_autoindex%'`.execute(db);
  return rows.map((row) => row.name).sort();
}

describe('migration 0015-complaints-named', () => {
  it('keeps every complaint, its timeline, photos and notifications under the new names, and back', async () => {
    const database = await createTestDatabase();
    const { db } = database.handle;
    const before = db as unknown as Kysely<Before>;
    try {
      await migrateTo(db, '0014-notification-occurred-at');
      const org = await buildOrganisation(db);
      const organisation_id = org.organisationId;
      const device = await buildDevice(db, organisation_id);
      const now = '2026-11-01T10:00:00.000Z';
      const complaint = {
        organisation_id,
        title: 'Door seal',
        text: 'Leaks steam',
        priority: 'high' as const,
        status: 'new' as const,
        device_id: device.id,
        address_id: null,
        author_id: org.admin.id,
        assignee_id: null,
        photos: '["a.jpg"]',
        comments_count: 0,
        created_at: now,
        updated_at: now,
        resolved_at: null,
      };
      const { id } = await before
        .insertInto('alerts')
        .values(complaint)
        .returning('id')
        .executeTakeFirstOrThrow();
      const entry = {
        organisation_id,
        kind: 'created' as const,
        author_id: org.admin.id,
        text: null,
        from_status: null,
        to_status: 'new' as const,
        assignee_id: null,
        priority: null,
        photos: '[]',
        created_at: now,
      };
      await before
        .insertInto('alert_events')
        .values({ ...entry, alert_id: id })
        .execute();
      await before
        .insertInto('alert_photos')
        .values({ file: 'a.jpg', organisation_id, type: 'image/jpeg', created_at: now })
        .execute();
      const notification = {
        organisation_id,
        user_id: org.admin.id,
        kind: 'request',
        severity: 'warning' as const,
        title: 'Door seal',
        body: '',
        device_id: device.id,
        event_id: null,
        created_at: now,
        occurred_at: now,
        read_at: null,
        dispatched_at: now,
      };
      await before
        .insertInto('notifications')
        .values({ ...notification, alert_id: id })
        .execute();

      await migrateToLatest(db);
      expect(await db.selectFrom('complaints').select(['id', 'title', 'photos']).execute()).toEqual([
        { id, title: 'Door seal', photos: '["a.jpg"]' },
      ]);
      expect(await db.selectFrom('complaint_events').select(['complaint_id', 'kind']).execute()).toEqual([
        { complaint_id: id, kind: 'created' },
      ]);
      expect(await db.selectFrom('complaint_photos').select(['file', 'organisation_id']).execute()).toEqual([
        { file: 'a.jpg', organisation_id },
      ]);
      expect(await db.selectFrom('notifications').select('complaint_id').execute()).toEqual([
        { complaint_id: id },
      ]);
      expect(await indexNames(db, ['complaints', 'complaint_events'])).toEqual([
        'complaint_events_complaint_idx',
        'complaints_device_idx',
        'complaints_organisation_created_idx',
        'complaints_organisation_status_idx',
      ]);
      // The ids go on from where they were, and the reference to a complaint still holds.
      const next = await db
        .insertInto('complaints')
        .values({ ...complaint, priority: 'low', status: 'new' })
        .returning('id')
        .executeTakeFirstOrThrow();
      expect(next.id).toBeGreaterThan(id);
      await expect(
        db
          .insertInto('complaint_events')
          .values({ ...entry, kind: 'created', to_status: 'new', complaint_id: next.id + 1000 })
          .execute(),
      ).rejects.toThrow();

      await migrateTo(db, '0014-notification-occurred-at');
      expect(await before.selectFrom('alert_events').select(['alert_id']).orderBy('id').execute()).toEqual([
        { alert_id: id },
      ]);
      expect(await before.selectFrom('notifications').select('alert_id').execute()).toEqual([
        { alert_id: id },
      ]);
      expect(await indexNames(db, ['alerts', 'alert_events'])).toEqual([
        'alert_events_alert_idx',
        'alerts_device_idx',
        'alerts_organisation_created_idx',
        'alerts_organisation_status_idx',
      ]);
    } finally {
      await database.drop();
    }
  });
});
