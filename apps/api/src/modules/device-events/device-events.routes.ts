import {
  pagedSchema,
  deviceEventBodySchema,
  deviceEventSchema,
  deviceEventsQuerySchema,
  deviceEventTemplateBodySchema,
  deviceEventTemplateSchema,
  deviceEventUpdateSchema,
  EVENT_READER_MODULES,
  idParamsSchema,
  type ModuleSlug,
} from '@kontrol/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { forbidden } from '@kontrol/server-kit';
import { currentUser } from '../../plugins/auth.js';
import { listOrPage } from '../../lib/pagination.js';
import { toEvent } from './events.presenter.js';
import { createEvent, deleteEvent, eventsListQuery, getEvent, updateEvent } from './events.service.js';
import {
  createTemplate,
  deleteTemplate,
  getTemplate,
  listTemplates,
  updateTemplate,
} from './templates.service.js';

const ID = ':id(^\\d+$)';
const templateEnvelope = z.object({ data: deviceEventTemplateSchema });
const eventEnvelope = z.object({ data: deviceEventSchema });
const EVENT_READERS: readonly ModuleSlug[] = EVENT_READER_MODULES;
/**
 * How long an answer of events is kept at most: the whole list (without `page`) holds the open
 * events and those of the last 24 hours, and an event ageing out of it moves no counter.
 */
const RECENT_FRESH_MS = 10_000;

/**
 * docs/contract.md, "Current templates and device events" (docs/events.md): current templates under the
 * `device_event_template` module, device events readable from the dashboard and equipment too.
 */
export async function deviceEventsRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tags = ['device events'];

  app.get('/api/devices/events/templates/all', {
    config: { access: EVENT_READERS },
    schema: {
      tags,
      summary: "The organisation's current templates, with the devices using each",
      response: { 200: z.object({ data: z.array(deviceEventTemplateSchema) }) },
    },
    handler: async (request) => ({ data: await listTemplates(app.db, currentUser(request).organisationId) }),
  });

  app.post('/api/devices/events/templates/add', {
    config: { access: 'device_event_template' },
    schema: {
      tags,
      summary: 'Create a current template',
      body: deviceEventTemplateBodySchema,
      response: { 201: templateEnvelope },
    },
    handler: async (request, reply) =>
      reply
        .code(201)
        .send({ data: await createTemplate(app.db, currentUser(request).organisationId, request.body) }),
  });

  app.get(`/api/devices/events/templates/${ID}`, {
    config: { access: EVENT_READERS },
    schema: {
      tags,
      summary: 'One current template',
      params: idParamsSchema,
      response: { 200: templateEnvelope },
    },
    handler: async (request) => ({
      data: await getTemplate(app.db, currentUser(request).organisationId, request.params.id),
    }),
  });

  app.put(`/api/devices/events/templates/${ID}`, {
    config: { access: 'device_event_template' },
    schema: {
      tags,
      summary: 'Replace a current template; events of removed rules close',
      params: idParamsSchema,
      body: deviceEventTemplateBodySchema,
      response: { 200: templateEnvelope },
    },
    handler: async (request) => ({
      data: await updateTemplate(
        app.db,
        currentUser(request).organisationId,
        request.params.id,
        request.body,
      ),
    }),
  });

  app.delete(`/api/devices/events/templates/${ID}`, {
    config: { access: 'device_event_template' },
    schema: {
      tags,
      summary: 'Delete a current template: its devices lose it, its open events close',
      params: idParamsSchema,
    },
    handler: async (request, reply) => {
      await deleteTemplate(app.db, currentUser(request).organisationId, request.params.id);
      return reply.code(204).send();
    },
  });

  app.get('/api/devices/events', {
    config: {
      access: EVENT_READERS,
      kept: { from: ['events', 'fleet', 'people'], freshForMs: RECENT_FRESH_MS },
    },
    schema: {
      tags,
      summary:
        'Device events, newest first: paged with `page`; without it the open ones and those of the last 24 hours',
      querystring: deviceEventsQuerySchema,
      response: {
        200: z.union([
          z.object({ data: z.array(deviceEventSchema) }).strict(),
          pagedSchema(deviceEventSchema),
        ]),
      },
    },
    handler: async (request, reply) => {
      const user = currentUser(request);
      const { page, per_page: perPage, filters } = request.query;
      return app.keptAnswers.send(request, reply, user, () => {
        const query = eventsListQuery(app.db, user.organisationId, filters, page === undefined);
        return listOrPage(request, query, { page, per_page: perPage }, (row) => toEvent(row, request.locale));
      });
    },
  });

  app.post('/api/devices/events/add', {
    config: { access: 'device_event_template' },
    schema: {
      tags,
      summary: 'Write an event by hand',
      body: deviceEventBodySchema,
      response: { 201: eventEnvelope },
    },
    handler: async (request, reply) => {
      const user = currentUser(request);
      const event = await createEvent(app.db, user.organisationId, user.id, request.body, request.locale);
      return reply.code(201).send({ data: event });
    },
  });

  app.get(`/api/devices/events/${ID}`, {
    config: { access: EVENT_READERS },
    schema: { tags, summary: 'One device event', params: idParamsSchema, response: { 200: eventEnvelope } },
    handler: async (request) => ({
      data: await getEvent(app.db, currentUser(request).organisationId, request.params.id, request.locale),
    }),
  });

  app.put(`/api/devices/events/${ID}`, {
    config: { access: EVENT_READERS },
    schema: {
      tags,
      summary: 'Acknowledge an event (or take it back) with a comment; a manual event may change and close',
      params: idParamsSchema,
      body: deviceEventUpdateSchema,
      response: { 200: eventEnvelope },
    },
    handler: async (request) => {
      const user = currentUser(request);
      // Acknowledging is for everyone who sees events; changing one is for the template module's holders.
      const changes = (['title', 'description', 'severity', 'ended_at'] as const).some(
        (field) => request.body[field] !== undefined,
      );
      if (changes && !user.moduleSlugs.has('device_event_template')) throw forbidden();
      return {
        data: await updateEvent(
          app.db,
          user.organisationId,
          user.id,
          request.params.id,
          request.body,
          request.locale,
        ),
      };
    },
  });

  app.delete(`/api/devices/events/${ID}`, {
    config: { access: 'device_event_template' },
    schema: {
      tags,
      summary: 'Delete an event (a rule’s open event cannot be deleted)',
      params: idParamsSchema,
    },
    handler: async (request, reply) => {
      await deleteEvent(app.db, currentUser(request).organisationId, request.params.id);
      return reply.code(204).send();
    },
  });
}
