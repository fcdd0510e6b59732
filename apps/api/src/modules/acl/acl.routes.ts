import {
  aclModuleSchema,
  aclRoleSchema,
  aclRolesListBodySchema,
  DEFAULT_PER_PAGE,
  filtersParamSchema,
  pagedSchema,
  type AclModule,
  type AclRole,
  type ModuleSlug,
} from '@kontrol/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { notFound } from '../../lib/http-errors.js';
import { currentUser } from '../../plugins/auth.js';
import { applyFilters, paginate, type FilterWhitelist } from '../../plugins/pagination.js';
import {
  clientModulesQuery,
  countRoleUsers,
  findRole,
  modulesOfRoles,
  rolesQuery,
} from './acl.repository.js';

const tags = ['access control'];
const roleFilters: FilterWhitelist = {
  id: { column: 'id', type: 'number', operators: ['=', 'in'] },
  name: { column: 'name', type: 'string', operators: ['=', 'like'] },
};
const moduleFilters: FilterWhitelist = {
  slug: { column: 'slug', type: 'string', operators: ['=', 'in'] },
  is_client_system: { column: 'is_client_system', type: 'boolean', operators: ['='] },
};

const toModule = (m: { id: number; slug: string; name: string; is_client_system: number }): AclModule => ({
  id: m.id,
  slug: m.slug as ModuleSlug,
  name: m.name,
  is_client_system: m.is_client_system === 1,
});

/**
 * Read side of access control (SPEC §6, §7 "Access control"), under the `users` module. Only
 * client-system modules and roles of the caller's organisation are ever listed.
 */
export async function aclRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get('/api/acl/modules', {
    config: { access: 'users' },
    schema: {
      tags,
      summary: 'Client-system access modules',
      querystring: z.object({ filters: filtersParamSchema.optional() }),
      response: { 200: z.object({ data: z.array(aclModuleSchema) }) },
    },
    handler: async (request) => {
      const query = applyFilters(clientModulesQuery(app.db), request.query.filters, moduleFilters);
      return { data: (await query.execute()).map(toModule) };
    },
  });

  app.post('/api/acl/roles', {
    config: { access: 'users' },
    schema: {
      tags,
      summary: "The organisation's access roles, paged unless withoutPagination",
      body: aclRolesListBodySchema,
      response: { 200: z.union([pagedSchema(aclRoleSchema), z.object({ data: z.array(aclRoleSchema) })]) },
    },
    handler: async (request) => {
      const user = currentUser(request);
      const body = request.body;
      const query = applyFilters(
        rolesQuery(app.db, user.organisationId, body.withAdminRole),
        body.filters,
        roleFilters,
      ).orderBy('id');
      const withModules = async (rows: Awaited<ReturnType<typeof query.execute>>): Promise<AclRole[]> => {
        const modules = await modulesOfRoles(
          app.db,
          rows.map((r) => r.id),
        );
        return rows.map((r) => ({
          id: r.id,
          name: r.name,
          account_id: r.account_id,
          is_admin_role: r.is_admin_role === 1,
          created_at: r.created_at,
          updated_at: r.updated_at,
          modules: modules.filter((m) => m.acl_role_id === r.id).map(toModule),
        }));
      };
      if (body.withoutPagination) return { data: await withModules(await query.execute()) };
      const page = await paginate(request, query, {
        page: body.page,
        per_page: body.per_page ?? DEFAULT_PER_PAGE,
      });
      return { ...page, data: await withModules(page.data) };
    },
  });

  app.get('/api/acl/role/:id/is_used', {
    config: { access: 'users' },
    schema: {
      tags,
      summary: 'Whether any user holds the role (a role in use cannot be deleted)',
      params: z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) }),
      response: {
        200: z.object({ data: z.object({ is_used: z.boolean(), users_count: z.number().int() }) }),
      },
    },
    handler: async (request) => {
      const { organisationId } = currentUser(request);
      const role = await findRole(app.db, organisationId, request.params.id);
      if (!role) throw notFound();
      const count = await countRoleUsers(app.db, organisationId, role.id);
      return { data: { is_used: count > 0, users_count: count } };
    },
  });
}
