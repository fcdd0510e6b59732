import { testDialect } from '@kontrol/db/testing';
import { CompiledQuery, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { seedFleet } from '../modules/demo/fleet.seed.js';
import { buildOrganisation, buildRecipe, buildRecipeSet, buildUser } from '../test/builders.js';
import { TestClient } from '../test/http-client.js';
import { useTestApp } from '../test/test-app.js';

const statements: CompiledQuery[] = [];
const t = useTestApp({
  dbLog: (event) => {
    if (event.level === 'query') statements.push(event.query);
  },
});

const filters = (value: object) => `filters=${encodeURIComponent(JSON.stringify(value))}`;

/**
 * Every paged list the console asks for, first page and a filter a user would set: each grows
 * with a chain (tens of thousands of devices, events and notifications), so none may read a whole
 * table, whatever the database's statistics say today.
 */
const LISTS = [
  '/api/devices/?page=1',
  `/api/devices/?page=1&${filters({ type_id: { operator: '=', value: 1 } })}`,
  '/api/addresses/?page=1',
  `/api/addresses/?page=1&${filters({ city: { operator: '=', value: 'Казань' } })}`,
  '/api/rooms/?page=1',
  '/api/devices/client/groups?page=1',
  `/api/devices/client/groups?page=1&${filters({ name: { operator: 'like', value: 'hot' } })}`,
  '/api/devices/events?page=1',
  `/api/devices/events?page=1&${filters({ ended_at: { operator: '=', value: null } })}`,
  '/api/devices/events',
  '/api/notifications?page=1',
  `/api/notifications?page=1&${filters({ read_at: { operator: '=', value: null } })}`,
  '/api/recipes/?page=1',
  '/api/recipes_sets/?page=1',
  '/api/alerts/?page=1',
  `/api/alerts/?page=1&${filters({ status: { operator: 'in', value: ['new', 'in_progress'] } })}`,
  '/api/users/?page=1',
  `/api/users/?page=1&${filters({ role: { operator: '=', value: 'admin' } })}`,
  // Not paged lists, but the whole fleet (reference data, the dashboard): the organisation's rows only.
  '/api/devices/',
  '/api/devices/stat',
  '/api/devices/stat/fryer',
];

/** Tables a list is read from that stay small whatever the chain: reference data. */
const SMALL = ['device_types', 'acl_modules'];

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Cond'?: string;
  Filter?: string;
  Plans?: PlanNode[];
}

/**
 * The tables a statement the API ran (with its values) reads whole, as the database plans it with
 * the statistics of the data there: SQLite's `SCAN` (of the table or of a whole index),
 * PostgreSQL's sequential scans and walks of a whole index to filter its rows.
 */
async function wholeTables(query: CompiledQuery): Promise<{ tables: string[]; plan: string }> {
  if (testDialect() === 'sqlite') {
    const result = await t.db.executeQuery<{ detail: string }>(
      CompiledQuery.raw(`explain query plan ${query.sql}`, [...query.parameters]),
    );
    const lines = result.rows.map((row) => row.detail);
    const tables = lines.map((line) => /^SCAN (\w+)\b/.exec(line.trim())?.[1]);
    return { tables: tables.filter((table) => table !== undefined), plan: lines.join('\n  ') };
  }
  // At these volumes PostgreSQL rightly reads a table of a few hundred rows whole; with that
  // off, a table it still reads whole has no index the statement can use.
  return t.db.transaction().execute(async (trx) => {
    await sql`set local enable_seqscan = off`.execute(trx);
    const result = await trx.executeQuery<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(
      CompiledQuery.raw(`explain (format json) ${query.sql}`, [...query.parameters]),
    );
    const root = result.rows[0]?.['QUERY PLAN'][0].Plan;
    const tables: string[] = [];
    const walk = (node: PlanNode) => {
      // A merge join may walk the whole index of the other side in order; walking one only to
      // filter its rows (the organisation's) is reading the table.
      const scansAll =
        node['Node Type'] === 'Seq Scan' ||
        (['Index Scan', 'Index Only Scan'].includes(node['Node Type']) &&
          !node['Index Cond'] &&
          node.Filter !== undefined);
      if (scansAll && node['Relation Name']) tables.push(node['Relation Name']);
      node.Plans?.forEach(walk);
    };
    if (root) walk(root);
    return { tables, plan: JSON.stringify(root) };
  });
}

/**
 * What a small chain's organisation holds, `scale` times, written by the database: 1 000 devices at
 * 50 addresses (half of them reported, a third washed), 100 groups, 5 000 device events (one in ten
 * open), 10 000 notifications of the admin, 1 000 complaints, 200 users and 200 access roles, 100
 * recipes in 50 sets.
 */
async function seedVolumes(organisation: Awaited<ReturnType<typeof buildOrganisation>>, scale: number) {
  const orgId = organisation.organisationId;
  await seedFleet(t.db, orgId, { devices: 1000 * scale, addresses: 50 * scale });
  const now = new Date().toISOString();
  const series = (count: number) =>
    sql`with recursive n(i) as (select 0 union all select i + 1 from n where i < ${count - 1})`;
  await sql`insert into device_groups (organisation_id, name, description, created_at, updated_at)
    ${series(100 * scale)} select ${orgId}, 'group ' || i, null, ${now}, ${now} from n`.execute(t.db);
  await sql`insert into device_group_devices (group_id, device_id)
    select g.id, d.id from device_groups g join devices d on d.organisation_id = g.organisation_id
     where g.organisation_id = ${orgId} and d.id % 100 = g.id % 100`.execute(t.db);
  await sql`insert into device_events (organisation_id, device_id, kind, severity, title, started_ts,
      ended_ts, created_at, updated_at)
    ${series(5)} select ${orgId}, d.id, 'manual', 'warning', 'Door', cast(${Date.now()} as bigint) - (d.id * 5 + i) * 60000,
      case when i = 0 and d.id % 2 = 0 then null else cast(${Date.now()} as bigint) end, ${now}, ${now}
    from devices d, n where d.organisation_id = ${orgId}`.execute(t.db);
  await sql`insert into notifications (organisation_id, user_id, kind, severity, title, body, created_at,
      occurred_at)
    ${series(10_000 * scale)} select ${orgId}, ${organisation.admin.id}, 'manual', 'info', 'Note', 'Body',
      ${now}, ${now} from n`.execute(t.db);
  await sql`update notifications set read_at = created_at
    where organisation_id = ${orgId} and id % 10 <> 0`.execute(t.db);
  await sql`insert into complaints (organisation_id, title, text, priority, status, photos, created_at,
      updated_at)
    ${series(1000 * scale)} select ${orgId}, 'Leaks', 'Text', 'normal',
      case when i % 4 = 0 then 'new' else 'closed' end, '[]', ${now}, ${now} from n`.execute(t.db);
  await sql`insert into acl_roles (organisation_id, name, is_client_system, is_admin_role, created_at,
      updated_at)
    ${series(200 * scale)} select ${orgId}, 'role ' || i, 1, 0, ${now}, ${now} from n`.execute(t.db);
  await sql`insert into users (organisation_id, name, email, role, locale, created_at, updated_at)
    ${series(200 * scale)} select ${orgId}, 'user ' || i, 'u' || i || '-' || ${orgId} || '@example.test',
      'regular', 'ru', ${now}, ${now} from n`.execute(t.db);
  // Recipes and sets by the database too: one at a time they took most of the test's time.
  const recipe = await buildRecipe(t.db, orgId);
  await sql`insert into recipes (organisation_id, device_type_id, name, steps, version, crc, size,
      duration_seconds, created_at, updated_at)
    ${series(100 * scale - 1)} select organisation_id, device_type_id, 'Recipe ' || i, steps, version, crc,
      size, duration_seconds, created_at, updated_at from recipes, n where id = ${recipe.id}`.execute(t.db);
  await buildRecipeSet(t.db, orgId, { typeId: recipe.typeId });
  await sql`insert into recipe_sets (organisation_id, device_type_id, name, created_at, updated_at)
    ${series(50 * scale - 1)} select ${orgId}, ${recipe.typeId}, 'Set ' || i, ${now}, ${now} from n`.execute(
    t.db,
  );
  // Set i holds recipes 2i to 2i + 4, in that order.
  await sql`insert into recipe_set_recipes (set_id, recipe_id, position)
    with r as (select id, row_number() over (order by id) - 1 as k from recipes where organisation_id = ${orgId}),
      s as (select id, row_number() over (order by id) - 1 as k from recipe_sets where organisation_id = ${orgId})
    select s.id, r.id, r.k - 2 * s.k from s join r on r.k >= 2 * s.k and r.k < 2 * s.k + 5`.execute(t.db);
  await buildUser(t.db, orgId, { modules: ['devices'] });
  // Half the devices reported, a third washed (three completed cycles each): the dashboard's stat.
  await sql`insert into device_live (device_id, last_online_at, state, current)
    select id, ${now}, 1, 1.5 from devices where organisation_id = ${orgId} and id % 2 = 0`.execute(t.db);
  await sql`insert into wash_cycles (device_id, started_ts, ended_ts, outcome)
    ${series(3)} select d.id, cast(${Date.now()} as bigint) - (i + 1) * 86400000,
      cast(${Date.now()} as bigint) - (i + 1) * 86400000 + 1800000, 'completed'
    from devices d, n where d.organisation_id = ${orgId} and d.id % 3 = 0`.execute(t.db);
}

describe('paged lists at chain scale', () => {
  it('read every page of every list through indexes, never a whole table', async () => {
    // The organisation asked for and a larger one beside it on the same server, so that reading one
    // organisation's rows by an index beats reading a table, and the planners know it (`analyze`).
    const org = await buildOrganisation(t.db);
    const orgId = org.organisationId;
    await seedVolumes(org, 1);
    await seedVolumes(await buildOrganisation(t.db), 4);
    const device = await t.db
      .selectFrom('devices')
      .select('id')
      .where('organisation_id', '=', orgId)
      .executeTakeFirstOrThrow();
    await sql`analyze`.execute(t.db);
    const client = new TestClient(t.app);
    await client.login(org.admin.email, org.admin.password);
    const complaint = await client.post('/api/alerts/', {
      title: 'Leaks',
      text: 'Under the door',
      device_id: device.id,
    });
    expect(complaint.statusCode, complaint.body).toBe(201);
    const event = await client.post('/api/devices/events/add', {
      device_id: device.id,
      severity: 'warning',
      title: 'Door',
    });
    expect(event.statusCode, event.body).toBe(201);

    const found: string[] = [];
    for (const url of LISTS) {
      statements.length = 0;
      const answer = await client.get(url);
      expect(answer.statusCode, `${url}: ${answer.body}`).toBe(200);
      // The list's own statements: not the session's, read before every request.
      const reads = statements.filter((q) => /^\s*select/i.test(q.sql) && !q.sql.includes('"sessions"'));
      expect(reads.length, url).toBeGreaterThan(0);
      for (const read of reads) {
        const { tables, plan } = await wholeTables(read);
        const large = tables.filter((table) => !SMALL.includes(table));
        if (large.length > 0) found.push(`${url}: ${large.join(', ')}\n  ${read.sql}\n  ${plan}`);
      }
    }
    expect(found, found.join('\n\n')).toEqual([]);
    // Seeding two chains' volumes and planning every statement: several seconds alone, more beside
    // the other test files on a busy machine.
  }, 60_000);
});
