import type { Database } from '@kontrol/db';
import type { Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import {
  buildDevice,
  buildOrganisation,
  buildRecipe,
  buildRecipeSet,
  buildUser,
  type BuiltUser,
} from '../test/builders.js';
import { LIST_VERSION_COLUMNS } from '../modules/users/users.repository.js';
import { TestClient } from '../test/http-client.js';
import { useTestApp } from '../test/test-app.js';

const t = useTestApp();

/** Migration 0016's counters (the fleet's has its own test, kept-answers.test.ts). */
type Counter = Exclude<(typeof LIST_VERSION_COLUMNS)[number], 'fleet_version'>;
const COUNTERS = LIST_VERSION_COLUMNS.filter((column): column is Counter => column !== 'fleet_version');

async function counters(organisationId: number) {
  const row = await t.db
    .selectFrom('organisations')
    .select(COUNTERS)
    .where('id', '=', organisationId)
    .executeTakeFirstOrThrow();
  return Object.fromEntries(COUNTERS.map((name) => [name, Number(row[name])])) as Record<Counter, number>;
}

const now = () => new Date().toISOString();

function insertEvent(db: Kysely<Database>, organisationId: number, deviceId: number) {
  return db
    .insertInto('device_events')
    .values({
      organisation_id: organisationId,
      device_id: deviceId,
      template_id: null,
      rule_key: null,
      condition_key: null,
      kind: 'manual',
      severity: 'warning',
      title: 'Door left open',
      description: null,
      details: null,
      started_ts: Date.now(),
      created_at: now(),
      updated_at: now(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
}

function insertNotification(db: Kysely<Database>, user: BuiltUser, title: string) {
  return db
    .insertInto('notifications')
    .values({
      organisation_id: user.organisationId,
      user_id: user.id,
      kind: 'manual',
      severity: 'info',
      title,
      body: 'Body',
      device_id: null,
      event_id: null,
      complaint_id: null,
      created_at: now(),
      occurred_at: now(),
      read_at: null,
      dispatched_at: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
}

function insertComplaint(db: Kysely<Database>, author: BuiltUser, title: string) {
  return db
    .insertInto('complaints')
    .values({
      organisation_id: author.organisationId,
      title,
      text: 'Text',
      priority: 'normal',
      status: 'new',
      device_id: null,
      address_id: null,
      author_id: author.id,
      assignee_id: null,
      photos: '[]',
      created_at: now(),
      updated_at: now(),
      resolved_at: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
}

describe("organisations' list counters (database triggers, migration 0016)", () => {
  it('each moves on every insert, update and delete of its tables, and no other counter or organisation moves', async () => {
    const org = await buildOrganisation(t.db);
    const other = await buildOrganisation(t.db);
    const orgId = org.organisationId;
    const device = await buildDevice(t.db, orgId);
    const recipe = await buildRecipe(t.db, orgId);
    const otherBefore = await counters(other.organisationId);
    let groupId = 0;
    let setId = 0;
    let roleId = 0;
    let eventId = 0;
    let notificationId = 0;
    let complaintId = 0;
    let userId = 0;
    const steps: [Counter, string, () => Promise<unknown>][] = [
      [
        'groups_version',
        'group insert',
        async () =>
          (groupId = (
            await t.db
              .insertInto('device_groups')
              .values({
                organisation_id: orgId,
                name: 'Hot',
                description: null,
                created_at: now(),
                updated_at: now(),
              })
              .returning('id')
              .executeTakeFirstOrThrow()
          ).id),
      ],
      [
        'groups_version',
        'member insert',
        () =>
          t.db
            .insertInto('device_group_devices')
            .values({ group_id: groupId, device_id: device.id })
            .execute(),
      ],
      [
        'groups_version',
        'member delete',
        () => t.db.deleteFrom('device_group_devices').where('group_id', '=', groupId).execute(),
      ],
      [
        'groups_version',
        'group update',
        () => t.db.updateTable('device_groups').set({ name: 'Cold' }).where('id', '=', groupId).execute(),
      ],
      [
        'groups_version',
        'group delete',
        () => t.db.deleteFrom('device_groups').where('id', '=', groupId).execute(),
      ],
      [
        'events_version',
        'event insert',
        async () => (eventId = (await insertEvent(t.db, orgId, device.id)).id),
      ],
      [
        'events_version',
        'event update',
        () =>
          t.db
            .updateTable('device_events')
            .set({ acknowledged_at: now() })
            .where('id', '=', eventId)
            .execute(),
      ],
      [
        'events_version',
        'event delete',
        () => t.db.deleteFrom('device_events').where('id', '=', eventId).execute(),
      ],
      [
        'notifications_version',
        'notification insert',
        async () => (notificationId = (await insertNotification(t.db, org.admin, 'Hello')).id),
      ],
      [
        'notifications_version',
        'notification update',
        () =>
          t.db
            .updateTable('notifications')
            .set({ read_at: now() })
            .where('id', '=', notificationId)
            .execute(),
      ],
      [
        'notifications_version',
        'notification delete',
        () => t.db.deleteFrom('notifications').where('id', '=', notificationId).execute(),
      ],
      ['recipes_version', 'recipe insert', () => buildRecipe(t.db, orgId)],
      [
        'recipes_version',
        'recipe update',
        () => t.db.updateTable('recipes').set({ name: 'Brioche' }).where('id', '=', recipe.id).execute(),
      ],
      ['recipes_version', 'set insert', async () => (setId = (await buildRecipeSet(t.db, orgId)).id)],
      [
        'recipes_version',
        'set member insert',
        () =>
          t.db
            .insertInto('recipe_set_recipes')
            .values({ set_id: setId, recipe_id: recipe.id, position: 0 })
            .execute(),
      ],
      [
        'recipes_version',
        'set member update',
        () =>
          t.db.updateTable('recipe_set_recipes').set({ position: 1 }).where('set_id', '=', setId).execute(),
      ],
      [
        'recipes_version',
        'set member delete',
        () => t.db.deleteFrom('recipe_set_recipes').where('set_id', '=', setId).execute(),
      ],
      [
        'recipes_version',
        'set delete',
        () => t.db.deleteFrom('recipe_sets').where('id', '=', setId).execute(),
      ],
      [
        'recipes_version',
        'recipe delete',
        () => t.db.deleteFrom('recipes').where('id', '=', recipe.id).execute(),
      ],
      [
        'complaints_version',
        'complaint insert',
        async () => (complaintId = (await insertComplaint(t.db, org.admin, 'Leaks')).id),
      ],
      [
        'complaints_version',
        'complaint update',
        () =>
          t.db.updateTable('complaints').set({ status: 'closed' }).where('id', '=', complaintId).execute(),
      ],
      [
        'complaints_version',
        'complaint delete',
        () => t.db.deleteFrom('complaints').where('id', '=', complaintId).execute(),
      ],
      [
        'people_version',
        'user and role insert',
        async () => {
          const user = await buildUser(t.db, orgId, { modules: ['devices'] });
          userId = user.id;
          roleId = user.roleId as number;
        },
      ],
      [
        'people_version',
        'user update',
        () => t.db.updateTable('users').set({ name: 'Anna' }).where('id', '=', userId).execute(),
      ],
      [
        'people_version',
        'role modules delete',
        () => t.db.deleteFrom('acl_role_modules').where('acl_role_id', '=', roleId).execute(),
      ],
      [
        'people_version',
        'role update',
        () => t.db.updateTable('acl_roles').set({ name: 'Cooks' }).where('id', '=', roleId).execute(),
      ],
      ['people_version', 'user delete', () => t.db.deleteFrom('users').where('id', '=', userId).execute()],
      [
        'people_version',
        'role delete',
        () => t.db.deleteFrom('acl_roles').where('id', '=', roleId).execute(),
      ],
    ];
    for (const [counter, name, step] of steps) {
      const before = await counters(orgId);
      await step();
      const after = await counters(orgId);
      expect(after[counter], name).toBeGreaterThan(before[counter]);
      for (const unmoved of COUNTERS.filter((c) => c !== counter))
        expect(after[unmoved], name).toBe(before[unmoved]);
    }
    expect(await counters(other.organisationId)).toEqual(otherBefore);
  });
});

describe('lists answered from kept bytes', () => {
  async function signedIn(user: BuiltUser) {
    const client = new TestClient(t.app);
    await client.login(user.email, user.password);
    return client;
  }

  /** Asks twice (the second from kept bytes), changes past the API, and sees the change at once. */
  async function showsChange(client: TestClient, url: string, change: () => Promise<unknown>, shows: string) {
    const first = await client.get(url);
    expect(first.statusCode, first.body).toBe(200);
    const kept = t.app.keptAnswers.size;
    expect(kept, `${url} is kept`).toBeGreaterThan(0);
    expect((await client.get(url)).body).toBe(first.body);
    expect(t.app.keptAnswers.size, `${url} is built once`).toBe(kept);
    expect(first.body).not.toContain(shows);
    // Written past the API, as another process, the gateway or the operator CLI would.
    await change();
    const next = await client.get(url);
    expect(next.statusCode).toBe(200);
    expect(next.body, url).toContain(shows);
  }

  it('shows every change of a device group, an event, a recipe, a set, a complaint or a user in the very next answer', async () => {
    const org = await buildOrganisation(t.db);
    const orgId = org.organisationId;
    const client = await signedIn(org.admin);
    const device = await buildDevice(t.db, orgId, { name: 'Oven' });

    const group = await t.db
      .insertInto('device_groups')
      .values({
        organisation_id: orgId,
        name: 'Hot line',
        description: null,
        created_at: now(),
        updated_at: now(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await showsChange(
      client,
      '/api/devices/client/groups?page=1',
      () =>
        t.db
          .insertInto('device_group_devices')
          .values({ group_id: group.id, device_id: device.id })
          .execute(),
      `"device_ids":[${device.id}]`,
    );

    const event = await insertEvent(t.db, orgId, device.id);
    for (const url of ['/api/devices/events?page=1', '/api/devices/events']) {
      const title = `Door ${url.length}`;
      await showsChange(
        client,
        url,
        () => t.db.updateTable('device_events').set({ title }).where('id', '=', event.id).execute(),
        title,
      );
    }
    // Events name their device: a renamed device shows too.
    await showsChange(
      client,
      '/api/devices/events?page=1',
      () => t.db.updateTable('devices').set({ name: 'Combi 7' }).where('id', '=', device.id).execute(),
      'Combi 7',
    );

    const recipe = await buildRecipe(t.db, orgId, { name: 'Brioche' });
    await showsChange(
      client,
      '/api/recipes/?page=1',
      () => t.db.updateTable('recipes').set({ name: 'Croissant' }).where('id', '=', recipe.id).execute(),
      'Croissant',
    );
    const set = await buildRecipeSet(t.db, orgId, { name: 'Morning' });
    await showsChange(
      client,
      '/api/recipes_sets/?page=1',
      () =>
        t.db
          .insertInto('recipe_set_recipes')
          .values({ set_id: set.id, recipe_id: recipe.id, position: 0 })
          .execute(),
      `"recipe_ids":[${recipe.id}]`,
    );

    const author = await buildUser(t.db, orgId, { modules: ['requests'] });
    await insertComplaint(t.db, author, 'Water under the door');
    // A complaint names its author: a renamed user shows too.
    await showsChange(
      client,
      '/api/alerts/?page=1',
      () => t.db.updateTable('users').set({ name: 'Marina' }).where('id', '=', author.id).execute(),
      'Marina',
    );
    await showsChange(
      client,
      '/api/alerts/?page=1&filters[status][operator]=%3D&filters[status][value]=closed',
      () =>
        t.db
          .updateTable('complaints')
          .set({ status: 'closed' })
          .where('organisation_id', '=', orgId)
          .execute(),
      'Water under the door',
    );
    await showsChange(
      client,
      '/api/users/?page=1&filters[name][operator]=like&filters[name][value]=ar',
      () => t.db.updateTable('users').set({ name: 'Arkady' }).where('id', '=', org.admin.id).execute(),
      'Arkady',
    );
  });

  it('keeps the access roles asked for with a body, one answer per body, and shows a change at once', async () => {
    const org = await buildOrganisation(t.db);
    const client = await signedIn(org.admin);
    const cooks = await buildUser(t.db, org.organisationId, { modules: ['devices'] });
    const list = async (body: object) => (await client.post('/api/acl/roles', body)).body;
    const paged = await list({ page: 1 });
    const whole = await list({ withoutPagination: true });
    expect(paged).toContain('"meta"');
    expect(whole).not.toContain('"meta"');
    expect(await list({ page: 1 })).toBe(paged);
    await t.db.updateTable('acl_roles').set({ name: 'Line cooks' }).where('id', '=', cooks.roleId).execute();
    expect(await list({ page: 1 })).toContain('Line cooks');
    expect(await list({ withoutPagination: true })).toContain('Line cooks');
  });

  it("keeps a user's notifications for that user only", async () => {
    const org = await buildOrganisation(t.db);
    const colleague = await buildUser(t.db, org.organisationId, { modules: ['devices'] });
    const admin = await signedIn(org.admin);
    const other = await signedIn(colleague);
    await insertNotification(t.db, org.admin, "Admin's note");
    await insertNotification(t.db, colleague, "Colleague's note");
    const url = '/api/notifications?page=1';
    for (let i = 0; i < 2; i += 1) {
      const mine = (await admin.get(url)).body;
      expect(mine).toContain("Admin's note");
      expect(mine).not.toContain("Colleague's note");
      const theirs = (await other.get(url)).body;
      expect(theirs).toContain("Colleague's note");
      expect(theirs).not.toContain("Admin's note");
    }
    await showsChange(admin, url, () => insertNotification(t.db, org.admin, 'Second note'), 'Second note');
  });

  it('keeps an answer per language when the language changes what it says', async () => {
    const org = await buildOrganisation(t.db);
    const client = await signedIn(org.admin);
    const device = await buildDevice(t.db, org.organisationId);
    await t.db
      .insertInto('device_events')
      .values({
        organisation_id: org.organisationId,
        device_id: device.id,
        template_id: null,
        rule_key: 'r1',
        condition_key: '0:r1',
        kind: 'no_data',
        severity: 'warning',
        title: null,
        description: null,
        details: null,
        started_ts: Date.now(),
        created_at: now(),
        updated_at: now(),
      })
      .execute();
    const url = '/api/devices/events?page=1';
    const english = (await client.get(url, { 'accept-language': 'en' })).json<{
      data: { title: string }[];
    }>();
    const russian = (await client.get(url, { 'accept-language': 'ru' })).json<{
      data: { title: string }[];
    }>();
    expect(english.data[0]?.title).not.toBe(russian.data[0]?.title);
    expect((await client.get(url, { 'accept-language': 'en' })).json()).toEqual(english);
  });

  it('still refuses a query it would not build, asked again and again beside kept answers', async () => {
    const org = await buildOrganisation(t.db);
    const client = await signedIn(org.admin);
    await buildRecipe(t.db, org.organisationId);
    expect((await client.get('/api/recipes/?page=1')).statusCode).toBe(200);
    for (let i = 0; i < 2; i += 1) {
      const bad = await client.get('/api/recipes/?page=0');
      expect(bad.statusCode).toBe(422);
      expect(bad.json<{ errors: Record<string, string[]> }>().errors).toHaveProperty('page');
    }
    const unknownFilter = '/api/users/?page=1&filters[secret][operator]=%3D&filters[secret][value]=1';
    expect((await client.get(unknownFilter)).statusCode).toBe(422);
    expect((await client.get(unknownFilter)).statusCode).toBe(422);
  });

  it("never answers one organisation with another's list at the same address", async () => {
    const first = await buildOrganisation(t.db);
    const second = await buildOrganisation(t.db);
    await buildRecipe(t.db, first.organisationId, { name: 'First brioche' });
    await buildRecipe(t.db, second.organisationId, { name: 'Second brioche' });
    const a = await signedIn(first.admin);
    const b = await signedIn(second.admin);
    for (const url of ['/api/recipes/?page=1', '/api/users/?page=1']) {
      const answerA = (await a.get(url)).body;
      const answerB = (await b.get(url)).body;
      expect(answerA).not.toBe(answerB);
      expect((await a.get(url)).body).toBe(answerA);
    }
    expect((await a.get('/api/recipes/?page=1')).body).not.toContain('Second brioche');
    expect((await b.get('/api/recipes/?page=1')).body).not.toContain('First brioche');
  });
});
