import type { ModuleSlug } from '@kontrol/contracts';
import type { ComplaintEventsTable, ComplaintsTable, Database, NotificationsTable } from '@kontrol/db';
import type { Insertable, Kysely, Transaction, Updateable } from 'kysely';

type Db = Kysely<Database> | Transaction<Database>;

/** SQL of complaints, their timeline and photos (docs/complaints.md); every read is scoped to the organisation. */

/** Complaints of the organisation with their author's and assignee's names. */
export function complaintsQuery(db: Db, organisationId: number) {
  return db
    .selectFrom('complaints')
    .leftJoin('users as author', 'author.id', 'complaints.author_id')
    .leftJoin('users as assignee', 'assignee.id', 'complaints.assignee_id')
    .select([
      'complaints.id',
      'complaints.title',
      'complaints.text',
      'complaints.priority',
      'complaints.status',
      'complaints.device_id',
      'complaints.address_id',
      'complaints.author_id',
      'author.name as author_name',
      'complaints.assignee_id',
      'assignee.name as assignee_name',
      'complaints.photos',
      'complaints.comments_count',
      'complaints.created_at',
      'complaints.updated_at',
      'complaints.resolved_at',
    ])
    .where('complaints.organisation_id', '=', organisationId);
}
export type ComplaintRow = Awaited<ReturnType<ReturnType<typeof complaintsQuery>['executeTakeFirstOrThrow']>>;

export function findComplaint(db: Db, organisationId: number, id: number) {
  return complaintsQuery(db, organisationId).where('complaints.id', '=', id).executeTakeFirst();
}

export async function insertComplaint(db: Db, values: Insertable<ComplaintsTable>) {
  return (await db.insertInto('complaints').values(values).returning('id').executeTakeFirstOrThrow()).id;
}

/**
 * Changes a complaint and adds `addComments` to its count of comment entries; with
 * `expectedStatus`, only while it still has that status (a change made meanwhile by another request
 * wins, and this one is told so by `false`).
 */
export async function updateComplaint(
  db: Db,
  organisationId: number,
  id: number,
  values: Updateable<ComplaintsTable>,
  options: { expectedStatus?: ComplaintsTable['status'] | undefined; addComments?: number } = {},
) {
  const addComments = options.addComments ?? 0;
  let query = db
    .updateTable('complaints')
    .set((eb) => ({ ...values, comments_count: eb('comments_count', '+', addComments) }))
    .where('organisation_id', '=', organisationId)
    .where('id', '=', id);
  if (options.expectedStatus !== undefined) query = query.where('status', '=', options.expectedStatus);
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** A complaint's timeline entries with their author's and assignee's names. */
export function complaintEventsQuery(db: Db, organisationId: number) {
  return db
    .selectFrom('complaint_events as e')
    .leftJoin('users as author', 'author.id', 'e.author_id')
    .leftJoin('users as assignee', 'assignee.id', 'e.assignee_id')
    .select([
      'e.id',
      'e.complaint_id',
      'e.kind',
      'e.author_id',
      'author.name as author_name',
      'e.text',
      'e.from_status',
      'e.to_status',
      'e.assignee_id',
      'assignee.name as assignee_name',
      'e.priority',
      'e.photos',
      'e.created_at',
    ])
    .where('e.organisation_id', '=', organisationId);
}
export type ComplaintEventRow = Awaited<
  ReturnType<ReturnType<typeof complaintEventsQuery>['executeTakeFirstOrThrow']>
>;

/** Every entry of one complaint, oldest first. */
export function findComplaintEvents(db: Db, organisationId: number, complaintId: number) {
  return complaintEventsQuery(db, organisationId)
    .where('e.complaint_id', '=', complaintId)
    .orderBy('e.id')
    .execute();
}

export function findComplaintEventsByIds(db: Db, organisationId: number, ids: readonly number[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return complaintEventsQuery(db, organisationId).where('e.id', 'in', ids).orderBy('e.id').execute();
}

export async function insertComplaintEvent(db: Db, values: Insertable<ComplaintEventsTable>) {
  return (await db.insertInto('complaint_events').values(values).returning('id').executeTakeFirstOrThrow())
    .id;
}

/** A device of the organisation with its name and the address it stands at (through its room). */
export function findOrganisationDevice(db: Db, organisationId: number, deviceId: number) {
  return db
    .selectFrom('devices')
    .innerJoin('rooms', 'rooms.id', 'devices.room_id')
    .select(['devices.id', 'devices.name', 'rooms.address_id'])
    .where('devices.organisation_id', '=', organisationId)
    .where('devices.id', '=', deviceId)
    .executeTakeFirst();
}

export function findOrganisationAddress(db: Db, organisationId: number, addressId: number) {
  return db
    .selectFrom('addresses')
    .select(['id', 'name'])
    .where('organisation_id', '=', organisationId)
    .where('id', '=', addressId)
    .executeTakeFirst();
}

/** What a complaint is about, by name: its device's and its address's (either may be gone). */
export function findSubjectNames(db: Db, organisationId: number, complaintId: number) {
  return db
    .selectFrom('complaints')
    .leftJoin('devices', (join) =>
      join
        .onRef('devices.id', '=', 'complaints.device_id')
        .onRef('devices.organisation_id', '=', 'complaints.organisation_id'),
    )
    .leftJoin('addresses', (join) =>
      join
        .onRef('addresses.id', '=', 'complaints.address_id')
        .onRef('addresses.organisation_id', '=', 'complaints.organisation_id'),
    )
    .select(['devices.name as device_name', 'addresses.name as address_name'])
    .where('complaints.organisation_id', '=', organisationId)
    .where('complaints.id', '=', complaintId)
    .executeTakeFirst();
}

/** A user of the organisation: whether active, and whether their access role holds `module`. */
export function findOrganisationUser(db: Db, organisationId: number, userId: number, module: ModuleSlug) {
  return db
    .selectFrom('users')
    .select((eb) => [
      'users.id',
      'users.name',
      'users.disabled_at',
      eb
        .exists(
          eb
            .selectFrom('acl_roles')
            .innerJoin('acl_role_modules', 'acl_role_modules.acl_role_id', 'acl_roles.id')
            .innerJoin('acl_modules', 'acl_modules.id', 'acl_role_modules.acl_module_id')
            .select('acl_roles.id')
            .whereRef('acl_roles.id', '=', 'users.acl_role_id')
            .whereRef('acl_roles.organisation_id', '=', 'users.organisation_id')
            .where('acl_modules.slug', '=', module),
        )
        .as('holds_module'),
    ])
    .where('users.organisation_id', '=', organisationId)
    .where('users.id', '=', userId)
    .executeTakeFirst();
}

/** Active users of the organisation whose access role holds `module`, with their language. */
export function findModuleHolders(db: Db, organisationId: number, module: ModuleSlug) {
  return db
    .selectFrom('users')
    .innerJoin('acl_roles', (join) =>
      join
        .onRef('acl_roles.id', '=', 'users.acl_role_id')
        .onRef('acl_roles.organisation_id', '=', 'users.organisation_id'),
    )
    .innerJoin('acl_role_modules', 'acl_role_modules.acl_role_id', 'acl_roles.id')
    .innerJoin('acl_modules', 'acl_modules.id', 'acl_role_modules.acl_module_id')
    .select(['users.id', 'users.locale'])
    .distinct()
    .where('users.organisation_id', '=', organisationId)
    .where('users.disabled_at', 'is', null)
    .where('acl_modules.slug', '=', module)
    .orderBy('users.id')
    .execute();
}

/** A user's language, if they are an active user of the organisation. */
export function findActiveUserLocale(db: Db, organisationId: number, userId: number) {
  return db
    .selectFrom('users')
    .select(['id', 'locale'])
    .where('organisation_id', '=', organisationId)
    .where('id', '=', userId)
    .where('disabled_at', 'is', null)
    .executeTakeFirst();
}

export async function insertNotifications(db: Db, rows: readonly Insertable<NotificationsTable>[]) {
  if (rows.length === 0) return;
  await db
    .insertInto('notifications')
    .values([...rows])
    .execute();
}

export async function insertPhoto(
  db: Db,
  values: { file: string; organisationId: number; type: string; now: string },
) {
  await db
    .insertInto('complaint_photos')
    .values({
      file: values.file,
      organisation_id: values.organisationId,
      type: values.type,
      created_at: values.now,
    })
    .execute();
}

/** A photo the organisation uploaded, or undefined. */
export function findPhoto(db: Db, organisationId: number, file: string) {
  return db
    .selectFrom('complaint_photos')
    .select(['file', 'type'])
    .where('organisation_id', '=', organisationId)
    .where('file', '=', file)
    .executeTakeFirst();
}

/** Which of `files` are photos the organisation uploaded. */
export async function findOrganisationPhotos(
  db: Db,
  organisationId: number,
  files: readonly string[],
): Promise<Set<string>> {
  if (files.length === 0) return new Set();
  const rows = await db
    .selectFrom('complaint_photos')
    .select('file')
    .where('organisation_id', '=', organisationId)
    .where('file', 'in', files)
    .execute();
  return new Set(rows.map((row) => row.file));
}
