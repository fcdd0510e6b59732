import type { AclRole } from '@kontrol/contracts';
import { describe, expect, it } from 'vitest';
import { insertRole } from './acl.repository.js';
import { buildOrganisation, buildUser } from '../../test/builders.js';
import { nextTestIp, TestClient } from '../../test/http-client.js';
import { useTestApp } from '../../test/test-app.js';

const t = useTestApp();

type Errors = { message: string; errors: Record<string, string[]> };

async function signedIn(user: { email: string; password: string }) {
  const client = new TestClient(t.app, { ip: nextTestIp() });
  await client.login(user.email, user.password);
  return client;
}

async function moduleIds(...slugs: string[]) {
  if (slugs.length === 0) return [];
  const rows = await t.db
    .selectFrom('acl_modules')
    .select(['id', 'slug'])
    .where('slug', 'in', slugs)
    .execute();
  return rows.map((r) => r.id).sort((a, b) => a - b);
}

async function allClientModuleIds() {
  const rows = await t.db.selectFrom('acl_modules').select('id').where('is_client_system', '=', 1).execute();
  return rows.map((r) => r.id);
}

async function roleOf(organisationId: number, name: string, slugs: string[] = []) {
  return insertRole(t.db, { organisationId, name, isAdminRole: false, moduleIds: await moduleIds(...slugs) });
}

async function adminOf() {
  const org = await buildOrganisation(t.db);
  return { org, admin: await signedIn(org.admin) };
}

describe('POST /api/acl/role (find one)', () => {
  it('answers the lowest-id matching role of the organisation, admin role included by default', async () => {
    const { org, admin } = await adminOf();
    const cooks = await roleOf(org.organisationId, 'Cooks', ['recipes']);
    await roleOf(org.organisationId, 'Cooks night', ['recipes']);

    const byId = await admin.post('/api/acl/role', { filters: { id: { operator: '=', value: cooks } } });
    expect(byId.statusCode).toBe(200);
    expect(byId.json<{ data: AclRole }>().data).toMatchObject({
      id: cooks,
      name: 'Cooks',
      account_id: org.organisationId,
      is_admin_role: false,
      modules: [{ slug: 'recipes' }],
    });
    const byName = await admin.post('/api/acl/role', {
      filters: { name: { operator: 'like', value: 'cooks' } },
    });
    expect(byName.json<{ data: AclRole }>().data.id).toBe(cooks);
    const first = await admin.post('/api/acl/role', {});
    expect(first.json<{ data: AclRole }>().data).toMatchObject({ id: org.adminRoleId, is_admin_role: true });
    const withoutAdmin = await admin.post('/api/acl/role', { withAdminRole: false });
    expect(withoutAdmin.json<{ data: AclRole }>().data.id).toBe(cooks);
  });

  it("answers 404 when none matches, and for another organisation's role", async () => {
    const { admin } = await adminOf();
    const other = await buildOrganisation(t.db);
    const none = await admin.post('/api/acl/role', { filters: { name: { operator: '=', value: 'Nobody' } } });
    expect(none.statusCode).toBe(404);
    const foreign = await admin.post('/api/acl/role', {
      filters: { id: { operator: '=', value: other.adminRoleId } },
    });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toEqual({ message: 'Not found.' });
  });

  it('is open to the users module without being an admin', async () => {
    const org = await buildOrganisation(t.db);
    const regular = await signedIn(await buildUser(t.db, org.organisationId, { modules: ['users'] }));
    expect((await regular.post('/api/acl/role', {})).statusCode).toBe(200);
    const other = await signedIn(await buildUser(t.db, org.organisationId, { modules: ['dashboard'] }));
    expect((await other.post('/api/acl/role', {})).statusCode).toBe(403);
  });
});

describe('POST /api/acl/role/add', () => {
  it('creates a client-system role of the organisation with the given modules', async () => {
    const { org, admin } = await adminOf();
    const ids = await moduleIds('dashboard', 'recipes');
    const res = await admin.post('/api/acl/role/add', { name: '  Cooks  ', module_ids: [...ids, ids[0]] });
    expect(res.statusCode).toBe(201);
    const role = res.json<{ data: AclRole }>().data;
    expect(role).toMatchObject({ name: 'Cooks', account_id: org.organisationId, is_admin_role: false });
    expect(role.modules.map((m) => m.slug)).toEqual(['dashboard', 'recipes']);
    const listed = await admin.post('/api/acl/roles', { withoutPagination: true });
    expect(listed.json<{ data: AclRole[] }>().data.map((r) => r.id)).toEqual([role.id]);
    const row = await t.db
      .selectFrom('acl_roles')
      .selectAll()
      .where('id', '=', role.id)
      .executeTakeFirstOrThrow();
    expect(row.is_client_system).toBe(1);
  });

  it('refuses modules that are not client-system ones, and a name the organisation already has', async () => {
    const { org, admin } = await adminOf();
    const operator = await t.db
      .insertInto('acl_modules')
      .values({ slug: `operator_${Date.now()}`, name: 'Operator', is_client_system: 0 })
      .returning('id')
      .executeTakeFirstOrThrow();
    for (const ids of [[operator.id], [999_999]]) {
      const res = await admin.post('/api/acl/role/add', { name: 'Sneaky', module_ids: ids });
      expect(res.statusCode).toBe(422);
      expect(res.json<Errors>().errors).toEqual({ module_ids: ['The selected value does not exist.'] });
    }

    await roleOf(org.organisationId, 'Cooks');
    const taken = await admin.post('/api/acl/role/add', { name: 'COOKS' });
    expect(taken.statusCode).toBe(422);
    expect(taken.json<Errors>().errors).toEqual({ name: ['An access role with this name already exists.'] });
    // Another organisation's names are theirs.
    const other = await adminOf();
    expect((await other.admin.post('/api/acl/role/add', { name: 'Cooks' })).statusCode).toBe(201);
    const roles = await t.db
      .selectFrom('acl_roles')
      .select('name')
      .where('organisation_id', '=', org.organisationId)
      .execute();
    expect(roles.map((r) => r.name).sort()).toEqual(['Administrator', 'Cooks']);
  });

  it('is for admins only: the users module alone is not enough', async () => {
    const org = await buildOrganisation(t.db);
    const regular = await signedIn(await buildUser(t.db, org.organisationId, { modules: ['users'] }));
    const res = await regular.post('/api/acl/role/add', { name: 'Mine' });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ message: 'This action is unauthorized.' });
    const adminWithoutModule = await signedIn(
      await buildUser(t.db, org.organisationId, { role: 'admin', modules: ['dashboard'] }),
    );
    expect((await adminWithoutModule.post('/api/acl/role/add', { name: 'Mine' })).statusCode).toBe(403);
    const names = await t.db.selectFrom('acl_roles').select('name').where('name', '=', 'Mine').execute();
    expect(names).toEqual([]);
  });
});

describe('POST /api/acl/role/{id}/modules and POST /api/acl/role/{id}', () => {
  it("replaces a role's modules; its users get them on their very next request", async () => {
    const { org, admin } = await adminOf();
    const user = await buildUser(t.db, org.organisationId, { modules: ['users'] });
    const client = await signedIn(user);
    expect((await client.get('/api/recipes/')).statusCode).toBe(403);
    expect((await client.get('/api/acl/modules')).statusCode).toBe(200);

    const res = await admin.post(`/api/acl/role/${user.roleId}/modules`, {
      module_ids: await moduleIds('recipes'),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json<{ data: AclRole }>().data.modules.map((m) => m.slug)).toEqual(['recipes']);
    expect((await client.get('/api/recipes/')).statusCode).toBe(200);
    expect((await client.get('/api/acl/modules')).statusCode).toBe(403);
    const auth = (await client.get('/api/users/auth')).json<{ data: { acl_modules: { slug: string }[] } }>();
    expect(auth.data.acl_modules.map((m) => m.slug)).toEqual(['recipes']);

    await admin.post(`/api/acl/role/${user.roleId}/modules`, { module_ids: [] });
    expect((await client.get('/api/recipes/')).statusCode).toBe(403);
  });

  it('renames, and replaces the modules when given', async () => {
    const { org, admin } = await adminOf();
    const role = await roleOf(org.organisationId, 'Cooks', ['recipes']);
    await roleOf(org.organisationId, 'Managers');

    const renamed = await admin.post(`/api/acl/role/${role}`, { name: 'Chefs' });
    expect(renamed.json<{ data: AclRole }>().data).toMatchObject({
      name: 'Chefs',
      modules: [{ slug: 'recipes' }],
    });
    const both = await admin.post(`/api/acl/role/${role}`, {
      name: 'chefs',
      module_ids: await moduleIds('devices', 'addresses'),
    });
    expect(both.statusCode).toBe(200);
    expect(both.json<{ data: AclRole }>().data.name).toBe('chefs');
    expect(
      both
        .json<{ data: AclRole }>()
        .data.modules.map((m) => m.slug)
        .sort(),
    ).toEqual(['addresses', 'devices']);

    const taken = await admin.post(`/api/acl/role/${role}`, { name: 'managers', module_ids: [] });
    expect(taken.statusCode).toBe(422);
    expect(taken.json<Errors>().errors).toEqual({ name: ['An access role with this name already exists.'] });
    // Nothing of the refused request was kept.
    const after = await admin.post('/api/acl/role', { filters: { id: { operator: '=', value: role } } });
    expect(after.json<{ data: AclRole }>().data.modules).toHaveLength(2);
  });

  it("keeps the admin role's modules: every client-system module, always", async () => {
    const { org, admin } = await adminOf();
    const res = await admin.post(`/api/acl/role/${org.adminRoleId}/modules`, {
      module_ids: await moduleIds('dashboard'),
    });
    expect(res.statusCode).toBe(422);
    expect(res.json<Errors>().errors).toEqual({
      module_ids: ['The administrator role always holds every module: they cannot be changed.'],
    });
    const same = await admin.post(`/api/acl/role/${org.adminRoleId}`, {
      name: 'Owners',
      module_ids: await allClientModuleIds(),
    });
    expect(same.statusCode).toBe(200);
    expect(same.json<{ data: AclRole }>().data).toMatchObject({ name: 'Owners', is_admin_role: true });
    expect(same.json<{ data: AclRole }>().data.modules).toHaveLength(10);
  });

  it("refuses another organisation's role (404) and non-admins (403), changing nothing", async () => {
    const { org, admin } = await adminOf();
    const other = await buildOrganisation(t.db);
    const theirs = await roleOf(other.organisationId, 'Theirs', ['dashboard']);
    expect((await admin.post(`/api/acl/role/${theirs}/modules`, { module_ids: [] })).statusCode).toBe(404);
    expect((await admin.post(`/api/acl/role/${theirs}`, { name: 'Mine now' })).statusCode).toBe(404);

    const mine = await roleOf(org.organisationId, 'Cooks', ['recipes']);
    const regular = await signedIn(await buildUser(t.db, org.organisationId, { modules: ['users'] }));
    expect((await regular.post(`/api/acl/role/${mine}/modules`, { module_ids: [] })).statusCode).toBe(403);
    expect((await regular.post(`/api/acl/role/${mine}`, { name: 'X' })).statusCode).toBe(403);

    const roles = await t.db
      .selectFrom('acl_roles')
      .leftJoin('acl_role_modules', 'acl_role_modules.acl_role_id', 'acl_roles.id')
      .select(['acl_roles.name', 'acl_role_modules.acl_module_id'])
      .where('acl_roles.id', 'in', [theirs, mine])
      .orderBy('acl_roles.id')
      .execute();
    expect(roles).toEqual([
      { name: 'Theirs', acl_module_id: (await moduleIds('dashboard'))[0] },
      { name: 'Cooks', acl_module_id: (await moduleIds('recipes'))[0] },
    ]);
  });
});

describe('DELETE /api/acl/role/{id}', () => {
  it('deletes a role nobody holds', async () => {
    const { org, admin } = await adminOf();
    const role = await roleOf(org.organisationId, 'Temporary', ['dashboard']);
    const res = await admin.delete(`/api/acl/role/${role}`);
    expect(res.statusCode).toBe(204);
    expect(await t.db.selectFrom('acl_roles').select('id').where('id', '=', role).execute()).toEqual([]);
    expect((await admin.get(`/api/acl/role/${role}/is_used`)).statusCode).toBe(404);
  });

  it('refuses (409) while a user holds it, disabled users included, and the admin role always', async () => {
    const { org, admin } = await adminOf();
    const user = await buildUser(t.db, org.organisationId, { modules: ['dashboard'] });
    await t.db
      .updateTable('users')
      .set({ disabled_at: new Date().toISOString() })
      .where('id', '=', user.id)
      .execute();
    expect((await admin.get(`/api/acl/role/${user.roleId}/is_used`)).json()).toEqual({
      data: { is_used: true, users_count: 1 },
    });
    const inUse = await admin.delete(`/api/acl/role/${user.roleId}`);
    expect(inUse.statusCode).toBe(409);
    expect(inUse.json()).toEqual({ message: 'Users hold this role (1): give them another role first.' });

    const adminRole = await admin.delete(`/api/acl/role/${org.adminRoleId}`);
    expect(adminRole.statusCode).toBe(409);
    expect(adminRole.json()).toEqual({ message: "The organisation's administrator role cannot be deleted." });

    await admin.put(`/api/users/${user.id}`, { acl_role_id: null });
    expect((await admin.get(`/api/acl/role/${user.roleId}/is_used`)).json()).toEqual({
      data: { is_used: false, users_count: 0 },
    });
    expect((await admin.delete(`/api/acl/role/${user.roleId}`)).statusCode).toBe(204);
  });

  it("refuses another organisation's role (404) and non-admins (403)", async () => {
    const { org, admin } = await adminOf();
    const other = await buildOrganisation(t.db);
    const theirs = await roleOf(other.organisationId, 'Theirs');
    expect((await admin.delete(`/api/acl/role/${theirs}`)).statusCode).toBe(404);
    const mine = await roleOf(org.organisationId, 'Mine');
    const regular = await signedIn(await buildUser(t.db, org.organisationId, { modules: ['users'] }));
    expect((await regular.delete(`/api/acl/role/${mine}`)).statusCode).toBe(403);
    const left = await t.db.selectFrom('acl_roles').select('id').where('id', 'in', [theirs, mine]).execute();
    expect(left).toHaveLength(2);
  });
});
