import {
  pagedSchema,
  DEFAULT_PER_PAGE,
  deviceGroupBodySchema,
  deviceGroupSchema,
  deviceGroupsListQuerySchema,
  idParamsSchema,
} from '@kontrol/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser } from '../../plugins/auth.js';
import { paginate } from '../../lib/pagination.js';
import {
  createGroup,
  deleteGroup,
  getGroup,
  groupsListQuery,
  updateGroup,
  withMembers,
} from './device-groups.service.js';

const tags = ['device groups'];
const GROUP_ID = ':id(^\\d+$)';
const groupEnvelope = z.object({ data: deviceGroupSchema });

/** docs/contract.md, "Equipment", groups: under the `devices` module, scoped to the caller's organisation. */
export async function deviceGroupsRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get('/api/devices/client/groups', {
    config: { access: 'devices', kept: { from: ['groups'] } },
    schema: {
      tags,
      summary: "The organisation's device groups, paged, with member ids",
      querystring: deviceGroupsListQuerySchema,
      response: { 200: pagedSchema(deviceGroupSchema) },
    },
    handler: async (request, reply) => {
      const user = currentUser(request);
      const { page, per_page: perPage, filters } = request.query;
      return app.keptAnswers.send(request, reply, user, async () => {
        const paged = await paginate(request, groupsListQuery(app.db, user.organisationId, filters), {
          page,
          per_page: perPage ?? DEFAULT_PER_PAGE,
        });
        return { ...paged, data: await withMembers(app.db, paged.data) };
      });
    },
  });

  app.post('/api/devices/client/groups/add', {
    config: { access: 'devices' },
    schema: {
      tags,
      summary: 'Create a group of devices of the organisation',
      body: deviceGroupBodySchema,
      response: { 201: groupEnvelope },
    },
    handler: async (request, reply) => {
      const group = await createGroup(app.db, currentUser(request).organisationId, request.body);
      return reply.code(201).send({ data: group });
    },
  });

  app.get(`/api/devices/client/groups/${GROUP_ID}`, {
    config: { access: 'devices' },
    schema: { tags, summary: 'One group', params: idParamsSchema, response: { 200: groupEnvelope } },
    handler: async (request) => ({
      data: await getGroup(app.db, currentUser(request).organisationId, request.params.id),
    }),
  });

  app.put(`/api/devices/client/groups/${GROUP_ID}`, {
    config: { access: 'devices' },
    schema: {
      tags,
      summary: 'Replace a group: name, description and the whole member list',
      params: idParamsSchema,
      body: deviceGroupBodySchema,
      response: { 200: groupEnvelope },
    },
    handler: async (request) => ({
      data: await updateGroup(app.db, currentUser(request).organisationId, request.params.id, request.body),
    }),
  });

  app.delete(`/api/devices/client/groups/${GROUP_ID}`, {
    config: { access: 'devices' },
    schema: { tags, summary: 'Delete a group (its devices stay)', params: idParamsSchema },
    handler: async (request, reply) => {
      await deleteGroup(app.db, currentUser(request).organisationId, request.params.id);
      return reply.code(204).send();
    },
  });
}
