import type { Database, IntegrationsTable } from '@kontrol/db';
import type { Insertable, Kysely } from 'kysely';

/** The organisation's integrations with the name of the user each carries notifications for. */
export function integrationsQuery(db: Kysely<Database>, organisationId: number) {
  return db
    .selectFrom('integrations')
    .innerJoin('users', 'users.id', 'integrations.user_id')
    .select([
      'integrations.id',
      'integrations.kind',
      'integrations.name',
      'integrations.status',
      'integrations.user_id',
      'users.name as user_name',
      'integrations.chat_title',
      'integrations.chat_username',
      'integrations.link_expires_at',
      'integrations.bound_at',
      'integrations.last_delivery_at',
      'integrations.last_error',
      'integrations.created_at',
      'integrations.updated_at',
    ])
    .where('integrations.organisation_id', '=', organisationId);
}
export type IntegrationRow = Awaited<
  ReturnType<ReturnType<typeof integrationsQuery>['executeTakeFirstOrThrow']>
>;

export function listIntegrations(db: Kysely<Database>, organisationId: number) {
  return integrationsQuery(db, organisationId)
    .orderBy('integrations.created_at', 'desc')
    .orderBy('integrations.id', 'desc')
    .execute();
}

export function findIntegration(db: Kysely<Database>, organisationId: number, integrationId: number) {
  return integrationsQuery(db, organisationId)
    .where('integrations.id', '=', integrationId)
    .executeTakeFirst();
}

/** The integration a link token started, in the organisation only. */
export function findIntegrationByTokenHash(db: Kysely<Database>, organisationId: number, tokenHash: string) {
  return integrationsQuery(db, organisationId)
    .where('integrations.link_token_hash', '=', tokenHash)
    .executeTakeFirst();
}

/** Pending integrations of the organisation whose link has run out become `expired`. */
export async function expireStaleLinks(db: Kysely<Database>, organisationId: number, now: string) {
  await db
    .updateTable('integrations')
    .set({ status: 'expired', updated_at: now })
    .where('organisation_id', '=', organisationId)
    .where('status', '=', 'pending')
    .where('link_expires_at', '<=', now)
    .execute();
}

/** An active (not disabled) user of the organisation, or undefined. */
export function findActiveUser(db: Kysely<Database>, organisationId: number, userId: number) {
  return db
    .selectFrom('users')
    .select(['id', 'name'])
    .where('organisation_id', '=', organisationId)
    .where('id', '=', userId)
    .where('disabled_at', 'is', null)
    .executeTakeFirst();
}

export async function insertIntegration(db: Kysely<Database>, values: Insertable<IntegrationsTable>) {
  const row = await db.insertInto('integrations').values(values).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

/** True when an integration was deleted; its outbox rows go with it (cascade). */
export async function deleteIntegration(db: Kysely<Database>, organisationId: number, integrationId: number) {
  const result = await db
    .deleteFrom('integrations')
    .where('organisation_id', '=', organisationId)
    .where('id', '=', integrationId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
