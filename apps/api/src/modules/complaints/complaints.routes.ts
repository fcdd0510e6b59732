import {
  complaintBodySchema,
  complaintEventBodySchema,
  complaintEventSchema,
  complaintSchema,
  complaintsPageSchema,
  complaintsQuerySchema,
  idParamsSchema,
} from '@kontrol/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { join } from 'node:path';
import { z } from 'zod';
import { ImageFileStore } from '../../lib/image-files.js';
import { currentUser } from '../../plugins/auth.js';
import { paginate } from '../../lib/pagination.js';
import { complaintPhotoRoutes } from './complaint-photos.routes.js';
import { toComplaint } from './complaints.presenter.js';
import {
  addComplaintEvents,
  complaintsListQuery,
  createComplaint,
  getComplaint,
  listComplaintEvents,
  type ComplaintActor,
} from './complaints.service.js';

const tags = ['complaints'];
const COMPLAINT_ID = ':id(^\\d+$)';
const complaintEnvelope = z.object({ data: complaintSchema });
const eventsEnvelope = z.object({ data: z.array(complaintEventSchema) });

function actorOf(request: FastifyRequest): ComplaintActor {
  const user = currentUser(request);
  return { id: user.id, organisationId: user.organisationId, name: user.name };
}

/**
 * docs/contract.md, "Complaints": complaints (the API's `alerts`), their timeline and photos
 * (docs/complaints.md). Everything under the `requests` module, in the caller's organisation only.
 */
export async function complaintsRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const photos = new ImageFileStore(join(app.config.uploadsDir, 'complaints'));

  app.get('/api/alerts/', {
    config: { access: 'requests', kept: { from: ['complaints', 'people'] } },
    schema: {
      tags,
      summary:
        "The organisation's complaints, newest first, paged; filters status, priority, device_id, " +
        'address_id, assignee_id (=, in), title (like), created_at (>=, <=, between)',
      querystring: complaintsQuerySchema,
      response: { 200: complaintsPageSchema },
    },
    handler: async (request, reply) => {
      const user = currentUser(request);
      const { page, per_page: perPage, filters } = request.query;
      return app.keptAnswers.send(request, reply, user, async () => {
        const query = complaintsListQuery(app.db, user.organisationId, filters);
        const paged = await paginate(request, query, { page, per_page: perPage });
        return { ...paged, data: paged.data.map(toComplaint) };
      });
    },
  });

  app.post('/api/alerts/', {
    config: { access: 'requests' },
    schema: {
      tags,
      summary: 'File a complaint about a device or an address of the organisation',
      body: complaintBodySchema,
      response: { 201: complaintEnvelope },
    },
    handler: async (request, reply) => {
      const complaint = await createComplaint(app.db, actorOf(request), request.body);
      return reply.code(201).send({ data: complaint });
    },
  });

  app.get(`/api/alerts/${COMPLAINT_ID}`, {
    config: { access: 'requests' },
    schema: { tags, summary: 'One complaint', params: idParamsSchema, response: { 200: complaintEnvelope } },
    handler: async (request) => ({
      data: await getComplaint(app.db, currentUser(request).organisationId, request.params.id),
    }),
  });

  app.get(`/api/alerts/${COMPLAINT_ID}/events`, {
    config: { access: 'requests' },
    schema: {
      tags,
      summary:
        "A complaint's timeline, oldest first: creation, comments, status, assignee and priority changes",
      params: idParamsSchema,
      response: { 200: eventsEnvelope },
    },
    handler: async (request) => ({
      data: await listComplaintEvents(app.db, currentUser(request).organisationId, request.params.id),
    }),
  });

  app.post(`/api/alerts/${COMPLAINT_ID}/events`, {
    config: { access: 'requests' },
    schema: {
      tags,
      summary:
        'Comment on a complaint and/or change its status, assignee or priority; answers the timeline ' +
        'entries written',
      params: idParamsSchema,
      body: complaintEventBodySchema,
      response: { 201: eventsEnvelope },
    },
    handler: async (request, reply) => {
      const events = await addComplaintEvents(
        app.db,
        actorOf(request),
        request.params.id,
        request.body,
        request.locale,
      );
      return reply.code(201).send({ data: events });
    },
  });

  await app.register(complaintPhotoRoutes, { photos });
}
