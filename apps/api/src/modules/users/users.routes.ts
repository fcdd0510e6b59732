import {
  idParamsSchema,
  userAddBodySchema,
  userSchema,
  userSettingsSchema,
  usersPageSchema,
  usersQuerySchema,
  userUpdateBodySchema,
} from '@kontrol/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser } from '../../plugins/auth.js';
import { listOrPage } from '../../lib/pagination.js';
import {
  addUser,
  deleteUser,
  getUser,
  getUserSettings,
  resendInvitation,
  saveUserSettings,
  updateOrganisationUser,
  usersListQuery,
  withRoles,
  type UsersDeps,
} from './users.service.js';

const tags = ['users'];
const USER_ID = ':id(^\\d+$)';
const userEnvelope = z.object({ data: userSchema });
const settingsEnvelope = z.object({ data: userSettingsSchema });
// The whole list first, strict, so a paged answer (with links and meta) fails it at once.
const listResponse = z.union([z.object({ data: z.array(userSchema) }).strict(), usersPageSchema]);
/** Complaint screens pick an assignee, so `requests` reads the users too. */
const read = { access: ['users', 'requests'] } as const;
/** Every change: the `users` module and an admin (docs/people.md "What isAdmin changes"). */
const change = { access: 'users', admin: true } as const;

/**
 * docs/contract.md, "Users and access control": the organisation's users, their invitations and per-user settings
 * (docs/people.md). Every query is scoped to the caller's organisation.
 */
export async function usersRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const deps = (): UsersDeps => ({
    db: app.db,
    mail: app.mail,
    rateLimiter: app.rateLimiter,
    appUrl: app.config.appUrl,
    invitations: app.config.invitations,
  });

  // docs/contract.md, "HTTP calls" names both `GET /users` and `GET /users/?page`.
  for (const url of ['/api/users', '/api/users/']) {
    app.get(url, {
      config: { ...read, kept: { from: ['people'] } },
      schema: {
        tags,
        summary:
          "The organisation's users by name: all of them as {data} without `page`, else paged; filters " +
          'id, role, status, acl_role_id (=, in), name, email (=, like), disabled (=)',
        querystring: usersQuerySchema,
        response: { 200: listResponse },
      },
      handler: async (request, reply) => {
        const user = currentUser(request);
        const { page, per_page: perPage, filters } = request.query;
        return app.keptAnswers.send(request, reply, user, async () => {
          const query = usersListQuery(app.db, user.organisationId, filters);
          const listed = await listOrPage(request, query, { page, per_page: perPage }, (row) => row);
          return { ...listed, data: await withRoles(app.db, listed.data) };
        });
      },
    });
  }

  app.post('/api/users/add', {
    config: change,
    schema: {
      tags,
      summary: 'Add a user without a password; they get an invitation e-mail to choose one (admins only)',
      body: userAddBodySchema,
      response: { 201: userEnvelope },
    },
    handler: async (request, reply) => {
      const user = await addUser(deps(), currentUser(request), request.body);
      return reply.code(201).send({ data: user });
    },
  });

  app.get(`/api/users/${USER_ID}`, {
    config: read,
    schema: { tags, summary: 'One user', params: idParamsSchema, response: { 200: userEnvelope } },
    handler: async (request) => ({
      data: await getUser(app.db, currentUser(request).organisationId, request.params.id),
    }),
  });

  app.put(`/api/users/${USER_ID}`, {
    config: change,
    schema: {
      tags,
      summary:
        'Change a user: any of name, email, role, acl_role_id, locale, disabled (admins only; not ' +
        'their own role, access role or disabling; never the last active admin)',
      params: idParamsSchema,
      body: userUpdateBodySchema,
      response: { 200: userEnvelope },
    },
    handler: async (request) => ({
      data: await updateOrganisationUser(deps(), currentUser(request), request.params.id, request.body),
    }),
  });

  app.delete(`/api/users/${USER_ID}`, {
    config: change,
    schema: {
      tags,
      summary: 'Delete a user; their sessions and tokens end (admins only; not themself, not the last admin)',
      params: idParamsSchema,
    },
    handler: async (request, reply) => {
      await deleteUser(app.db, currentUser(request), request.params.id);
      return reply.code(204).send();
    },
  });

  app.post(`/api/users/${USER_ID}/invitation`, {
    config: change,
    schema: {
      tags,
      summary: 'Send a fresh invitation to a user who has not set a password; the older link stops working',
      params: idParamsSchema,
      response: { 200: userEnvelope },
    },
    handler: async (request) => ({
      data: await resendInvitation(deps(), currentUser(request), request.params.id),
    }),
  });

  app.get(`/api/users/${USER_ID}/settings`, {
    config: { access: 'user' },
    schema: {
      tags,
      summary: "A user's notification settings, language and time zone (their own, or an admin's view)",
      params: idParamsSchema,
      response: { 200: settingsEnvelope },
    },
    handler: async (request) => ({
      data: await getUserSettings(app.db, currentUser(request), request.params.id),
    }),
  });

  app.post(`/api/users/${USER_ID}/settings`, {
    config: { access: 'user' },
    schema: {
      tags,
      summary: "Save a user's whole settings object (their own, or as an admin)",
      params: idParamsSchema,
      body: userSettingsSchema,
      response: { 200: settingsEnvelope },
    },
    handler: async (request) => ({
      data: await saveUserSettings(app.db, currentUser(request), request.params.id, request.body),
    }),
  });
}
