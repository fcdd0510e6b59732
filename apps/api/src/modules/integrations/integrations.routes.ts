import {
  idParamsSchema,
  integrationBodySchema,
  integrationCreatedSchema,
  integrationSchema,
  integrationsListSchema,
  telegramBindingSchema,
} from '@kontrol/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser } from '../../plugins/auth.js';
import {
  createIntegration,
  deleteIntegration,
  getIntegration,
  listIntegrations,
  telegramBinding,
} from './integrations.service.js';

const tags = ['integrations'];
const INTEGRATION_ID = ':id(^\\d+$)';
const tokenParams = z.object({ token: z.string().max(128) });

/**
 * docs/contract.md, "Users and access control" (docs/integrations.md): read by holders of `settings`,
 * created and deleted by the organisation's admins; scoped to the caller's organisation.
 */
export async function integrationsRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get('/api/integrations', {
    config: { access: 'settings' },
    schema: {
      tags,
      summary: "The organisation's integrations, and whether the server has a Telegram bot",
      response: { 200: integrationsListSchema },
    },
    handler: async (request) => listIntegrations(app.db, app.telegram, currentUser(request).organisationId),
  });

  app.get(`/api/integrations_show/${INTEGRATION_ID}`, {
    config: { access: 'settings' },
    schema: {
      tags,
      summary: 'One integration',
      params: idParamsSchema,
      response: { 200: z.object({ data: integrationSchema }) },
    },
    handler: async (request) => ({
      data: await getIntegration(app.db, currentUser(request).organisationId, request.params.id),
    }),
  });

  app.post('/api/integrations', {
    config: { access: 'settings', admin: true },
    schema: {
      tags,
      summary: 'Create a Telegram integration: its one-time link binds a chat (admins only)',
      body: integrationBodySchema,
      response: { 201: integrationCreatedSchema },
    },
    handler: async (request, reply) => {
      const created = await createIntegration(app.db, app.telegram, currentUser(request), request.body);
      return reply.code(201).send(created);
    },
  });

  app.delete(`/api/integrations/${INTEGRATION_ID}`, {
    config: { access: 'settings', admin: true },
    schema: {
      tags,
      summary: 'Delete an integration; its unsent messages go with it (admins only)',
      params: idParamsSchema,
    },
    handler: async (request, reply) => {
      await deleteIntegration(app.db, currentUser(request).organisationId, request.params.id);
      return reply.code(204).send();
    },
  });

  app.get('/api/integrations/telegram/:token', {
    config: { access: 'settings' },
    schema: {
      tags,
      summary: 'The binding a Telegram link token started: pending, active, expired or blocked',
      params: tokenParams,
      response: { 200: telegramBindingSchema },
    },
    handler: async (request) =>
      telegramBinding(app.db, app.telegram, currentUser(request).organisationId, request.params.token),
  });
}
