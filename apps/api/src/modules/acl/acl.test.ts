import { describe, expect, it } from 'vitest';
import { insertRole } from './acl.repository.js';
import { buildOrganisation, buildUser } from '../../test/builders.js';
import { TestClient } from '../../test/http-client.js';
import { useTestApp } from '../../test/test-app.js';

const t = useTestApp();

async function signedIn(email: string, password: string) {
  const client = new TestClient(t.app);
  await client.login(email, password);
  return client;
}

type Paged = {
  data: {
    id: number;
    name: string;
    account_id: number;
    is_admin_role: boolean;
    modules: { slug: string }[];
  }[];
  links: { first: string; last: string; prev: string | null; next: string | null };
  meta: {
    current_page: number;
    from: number | null;
    last_page: number;
    path: string;
    per_page: number;
    to: number | null;
    total: number;
  };
};

describe('module access (403)', () => {
  it('lets a user with the module in, and answers 403 {message} to one without it', async () => {
    const org = await buildOrganisation(t.db);
    const withUsers = await buildUser(t.db, org.organisationId, { modules: ['users'] });
    const onlyRecipes = await buildUser(t.db, org.organisationId, { modules: ['recipes'] });

    const allowed = await signedIn(withUsers.email, withUsers.password);
    expect((await allowed.get('/api/acl/modules')).statusCode).toBe(200);

    const denied = await signedIn(onlyRecipes.email, onlyRecipes.password);
    const res = await denied.get('/api/acl/modules');
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ message: 'This action is unauthorized.' });
    // The same user's own profile needs no module.
    expect((await denied.get('/api/users/auth')).statusCode).toBe(200);
  });

  it("takes a role's module change into account on the very next request", async () => {
    const org = await buildOrganisation(t.db);
    const user = await buildUser(t.db, org.organisationId, { modules: ['dashboard'] });
    const client = await signedIn(user.email, user.password);
    expect((await client.get('/api/acl/modules')).statusCode).toBe(403);
    const usersModule = await t.db
      .selectFrom('acl_modules')
      .select('id')
      .where('slug', '=', 'users')
      .executeTakeFirstOrThrow();
    await t.db
      .insertInto('acl_role_modules')
      .values({ acl_role_id: user.roleId ?? 0, acl_module_id: usersModule.id })
      .execute();
    expect((await client.get('/api/acl/modules')).statusCode).toBe(200);
  });

  it('GET /api/acl/modules lists the client-system modules only', async () => {
    const org = await buildOrganisation(t.db);
    await t.db
      .insertInto('acl_modules')
      .values({ slug: 'operator_only', name: 'Operator', is_client_system: 0 })
      .execute();
    const client = await signedIn(org.admin.email, org.admin.password);
    const body = (await client.get('/api/acl/modules')).json<{
      data: { slug: string; is_client_system: boolean }[];
    }>();
    expect(body.data).toHaveLength(10);
    expect(body.data.every((m) => m.is_client_system)).toBe(true);
    expect(body.data.map((m) => m.slug)).not.toContain('operator_only');
  });
});

describe('organisation scoping', () => {
  it("never lists another organisation's roles and answers 404 for their ids", async () => {
    const mine = await buildOrganisation(t.db);
    const theirs = await buildOrganisation(t.db);
    const theirRole = await insertRole(t.db, {
      organisationId: theirs.organisationId,
      name: 'Their role',
      isAdminRole: false,
      moduleIds: [],
    });
    const client = await signedIn(mine.admin.email, mine.admin.password);

    const list = (
      await client.post('/api/acl/roles', { withAdminRole: true, withoutPagination: true })
    ).json<{ data: Paged['data'] }>();
    expect(list.data.map((r) => r.account_id)).toEqual([mine.organisationId]);

    const foreign = await client.get(`/api/acl/role/${theirRole}/is_used`);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toEqual({ message: 'Not found.' });
    const own = await client.get(`/api/acl/role/${mine.adminRoleId}/is_used`);
    expect(own.json()).toEqual({ data: { is_used: true, users_count: 1 } });
  });

  it('answers 422 for an id that is not a number', async () => {
    const org = await buildOrganisation(t.db);
    const client = await signedIn(org.admin.email, org.admin.password);
    const res = await client.get('/api/acl/role/abc/is_used');
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json<{ errors: object }>().errors)).toEqual(['id']);
  });
});

describe('paged lists and filters (POST /api/acl/roles)', () => {
  async function orgWithRoles(count: number) {
    const org = await buildOrganisation(t.db);
    for (let i = 1; i <= count; i += 1) {
      await insertRole(t.db, {
        organisationId: org.organisationId,
        name: `Role ${String(i).padStart(2, '0')}`,
        isAdminRole: false,
        moduleIds: [],
      });
    }
    return { org, client: await signedIn(org.admin.email, org.admin.password) };
  }

  it("pages with Laravel's data, links and meta", async () => {
    const { client } = await orgWithRoles(30);
    const first = (await client.post('/api/acl/roles', { page: 1 })).json<Paged>();
    expect(first.data).toHaveLength(25);
    expect(first.meta).toEqual({
      current_page: 1,
      from: 1,
      last_page: 2,
      path: 'http://localhost:80/api/acl/roles',
      per_page: 25,
      to: 25,
      total: 30,
    });
    expect(first.links).toEqual({
      first: 'http://localhost:80/api/acl/roles?page=1',
      last: 'http://localhost:80/api/acl/roles?page=2',
      prev: null,
      next: 'http://localhost:80/api/acl/roles?page=2',
    });
    const second = (await client.post('/api/acl/roles', { page: 2 })).json<Paged>();
    expect(second.data.map((r) => r.name)).toEqual(['Role 26', 'Role 27', 'Role 28', 'Role 29', 'Role 30']);
    expect(second.meta).toMatchObject({ from: 26, to: 30, current_page: 2 });
    const beyond = (await client.post('/api/acl/roles', { page: 9 })).json<Paged>();
    expect(beyond.data).toEqual([]);
    expect(beyond.meta).toMatchObject({ from: null, to: null, total: 30 });
  });

  it('leaves the admin role out unless withAdminRole, and returns everything with withoutPagination', async () => {
    const { client } = await orgWithRoles(3);
    const without = (await client.post('/api/acl/roles', { withoutPagination: true })).json<{
      data: Paged['data'];
      meta?: unknown;
    }>();
    expect(without.data.map((r) => r.name)).toEqual(['Role 01', 'Role 02', 'Role 03']);
    expect(without.meta).toBeUndefined();
    const withAdmin = (
      await client.post('/api/acl/roles', { withoutPagination: true, withAdminRole: true })
    ).json<{ data: Paged['data'] }>();
    expect(withAdmin.data[0]).toMatchObject({ is_admin_role: true });
    expect(withAdmin.data[0]?.modules).toHaveLength(10);
  });

  it('filters by whitelisted fields, with values bound as parameters', async () => {
    const { client } = await orgWithRoles(12);
    const like = (
      await client.post('/api/acl/roles', { filters: { name: { operator: 'like', value: 'role 1' } } })
    ).json<Paged>();
    expect(like.data.map((r) => r.name)).toEqual(['Role 10', 'Role 11', 'Role 12']);
    const ids = like.data.map((r) => r.id);
    const byIds = (
      await client.post('/api/acl/roles', { filters: { id: { operator: 'in', value: ids.slice(0, 2) } } })
    ).json<Paged>();
    expect(byIds.data.map((r) => r.id)).toEqual(ids.slice(0, 2));
    // SQL in a value is just text that matches nothing.
    const injection = await client.post('/api/acl/roles', {
      filters: { name: { operator: '=', value: "x' OR '1'='1" } },
    });
    expect(injection.json<Paged>().meta.total).toBe(0);
    // LIKE wildcards in a value are literal.
    const wildcard = await client.post('/api/acl/roles', {
      filters: { name: { operator: 'like', value: '%' } },
    });
    expect(wildcard.json<Paged>().meta.total).toBe(0);
  });

  it('refuses unknown fields, disallowed operators and wrong value types with 422', async () => {
    const { client } = await orgWithRoles(1);
    const res = await client.post('/api/acl/roles', {
      filters: {
        organisation_id: { operator: '=', value: 1 },
        name: { operator: '>', value: 'a' },
        id: { operator: '=', value: 'abc' },
      },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json<{ errors: Record<string, string[]> }>().errors).toEqual({
      'filters.organisation_id': ['Filtering by this field is not allowed.'],
      'filters.name': ['This operator is not allowed for this field.'],
      'filters.id': ['The filter value is invalid.'],
    });
    const badOperator = await client.post('/api/acl/roles', {
      filters: { name: { operator: 'DROP', value: 'a' } },
    });
    expect(badOperator.statusCode).toBe(422);
    expect(Object.keys(badOperator.json<{ errors: object }>().errors)).toEqual(['filters.name.operator']);
  });

  it('accepts filters in a query string in bracket form or as JSON', async () => {
    const org = await buildOrganisation(t.db);
    const client = await signedIn(org.admin.email, org.admin.password);
    const bracket = await client.get(
      '/api/acl/modules?filters[slug][operator]=in&filters[slug][value][]=users&filters[slug][value][]=billing',
    );
    expect(bracket.json<{ data: { slug: string }[] }>().data.map((m) => m.slug)).toEqual([
      'users',
      'billing',
    ]);
    const json = encodeURIComponent(JSON.stringify({ slug: { operator: '=', value: 'dashboard' } }));
    const asJson = await client.get(`/api/acl/modules?filters=${json}`);
    expect(asJson.json<{ data: { slug: string }[] }>().data.map((m) => m.slug)).toEqual(['dashboard']);
  });
});
