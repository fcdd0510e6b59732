import {
  aclModuleSchema,
  aclRoleAddBodySchema,
  aclRoleFindBodySchema,
  aclRoleModulesBodySchema,
  aclRoleSchema,
  aclRolesListBodySchema,
  aclRoleUpdateBodySchema,
  pagedSchema,
  DEFAULT_PER_PAGE,
  filtersParamSchema,
  idParamsSchema,
} from '@kontrol/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser } from '../../plugins/auth.js';
import { paginate } from '../../lib/pagination.js';
import {
  createRole,
  deleteRole,
  findRoleByFilters,
  listClientModules,
  roleUsage,
  rolesListQuery,
  updateRole,
  withModules,
} from './acl.service.js';

const tags = ['access control'];
/** `add` is a static route and wins; any other text is a 422 on `id`. */
const ROLE_ID = ':id';
const roleEnvelope = z.object({ data: aclRoleSchema });
/** Reading needs the `users` module; every change also needs an admin (docs/people.md). */
const read = { access: 'users' } as const;
const change = { access: 'users', admin: true } as const;

/**
 * Access control (docs/contract.md, "Roles and permissions", "HTTP calls" (Access control)), under the `users` module. Only client-system
 * modules and client-system roles of the caller's organisation are ever listed or changed.
 */
export async function aclRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get('/api/acl/modules', {
    config: read,
    schema: {
      tags,
      summary: 'Client-system access modules',
      querystring: z.object({ filters: filtersParamSchema.optional() }),
      response: { 200: z.object({ data: z.array(aclModuleSchema) }) },
    },
    handler: async (request) => ({ data: await listClientModules(app.db, request.query.filters) }),
  });

  app.post('/api/acl/roles', {
    config: read,
    schema: {
      tags,
      summary: "The organisation's access roles, paged unless withoutPagination",
      body: aclRolesListBodySchema,
      response: { 200: z.union([pagedSchema(aclRoleSchema), z.object({ data: z.array(aclRoleSchema) })]) },
    },
    handler: async (request, reply) => {
      const user = currentUser(request);
      const body = request.body;
      return app.keptAnswers.send(
        request,
        reply,
        user,
        async () => {
          const query = rolesListQuery(app.db, user.organisationId, body);
          if (body.withoutPagination) return { data: await withModules(app.db, await query.execute()) };
          const page = await paginate(request, query, {
            page: body.page,
            per_page: body.per_page ?? DEFAULT_PER_PAGE,
          });
          return { ...page, data: await withModules(app.db, page.data) };
        },
        // A list asked for with a body: the body (as validated) is what the URL is to the others.
        { from: ['people'], variant: JSON.stringify(body) },
      );
    },
  });

  app.post('/api/acl/role', {
    config: read,
    schema: {
      tags,
      summary: 'The first (lowest id) of the organisation’s roles matching the filters; 404 when none',
      body: aclRoleFindBodySchema,
      response: { 200: roleEnvelope },
    },
    handler: async (request) => ({
      data: await findRoleByFilters(app.db, currentUser(request).organisationId, request.body),
    }),
  });

  app.post('/api/acl/role/add', {
    config: change,
    schema: {
      tags,
      summary: 'Create an access role with client-system modules (admins only)',
      body: aclRoleAddBodySchema,
      response: { 201: roleEnvelope },
    },
    handler: async (request, reply) => {
      const role = await createRole(app.db, currentUser(request).organisationId, request.body);
      return reply.code(201).send({ data: role });
    },
  });

  app.post(`/api/acl/role/${ROLE_ID}/modules`, {
    config: change,
    schema: {
      tags,
      summary: "Replace the role's modules; its users get them on their next request (admins only)",
      params: idParamsSchema,
      body: aclRoleModulesBodySchema,
      response: { 200: roleEnvelope },
    },
    handler: async (request) => ({
      data: await updateRole(app.db, currentUser(request).organisationId, request.params.id, request.body),
    }),
  });

  app.post(`/api/acl/role/${ROLE_ID}`, {
    config: change,
    schema: {
      tags,
      summary: 'Rename a role and, given module_ids, replace its modules (admins only)',
      params: idParamsSchema,
      body: aclRoleUpdateBodySchema,
      response: { 200: roleEnvelope },
    },
    handler: async (request) => ({
      data: await updateRole(app.db, currentUser(request).organisationId, request.params.id, request.body),
    }),
  });

  app.delete(`/api/acl/role/${ROLE_ID}`, {
    config: change,
    schema: {
      tags,
      summary: 'Delete a role nobody holds; the admin role never (admins only)',
      params: idParamsSchema,
    },
    handler: async (request, reply) => {
      await deleteRole(app.db, currentUser(request).organisationId, request.params.id);
      return reply.code(204).send();
    },
  });

  app.get(`/api/acl/role/${ROLE_ID}/is_used`, {
    config: read,
    schema: {
      tags,
      summary: 'Whether any user holds the role (a role in use cannot be deleted)',
      params: idParamsSchema,
      response: {
        200: z.object({ data: z.object({ is_used: z.boolean(), users_count: z.number().int() }) }),
      },
    },
    handler: async (request) => ({
      data: await roleUsage(app.db, currentUser(request).organisationId, request.params.id),
    }),
  });
}
