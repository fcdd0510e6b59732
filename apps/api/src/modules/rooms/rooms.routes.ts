import {
  pagedSchema,
  idParamsSchema,
  placesListQuerySchema,
  roomBodySchema,
  roomSchema,
} from '@kontrol/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser } from '../../plugins/auth.js';
import { createRoom, deleteRoom, getRoom, listRooms, updateRoom } from './rooms.service.js';

const tags = ['rooms'];
const itemEnvelope = z.object({ data: roomSchema });
// The whole list first, strict, so a paged answer (with links and meta) fails it at once.
const listResponse = z.union([z.object({ data: z.array(roomSchema) }).strict(), pagedSchema(roomSchema)]);

/**
 * docs/contract.md, "Addresses and rooms": CRUD at /rooms/ and /rooms/{id}, under the `addresses` module (rooms
 * are part of an address's page), in the caller's organisation only.
 */
export async function roomsRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const roomOf = (organisationId: number, roomId: number) => getRoom(app.db, organisationId, roomId);

  app.get('/api/rooms/', {
    config: { access: 'addresses', kept: { from: ['fleet'] } },
    schema: {
      tags,
      summary:
        "The organisation's rooms by name: all of them as {data} without `page` (reference data), else " +
        'paged; filters id and address_id (=, in), name (=, like)',
      querystring: placesListQuerySchema,
      response: { 200: listResponse },
    },
    handler: async (request, reply) => {
      const user = currentUser(request);
      return app.keptAnswers.send(request, reply, user, () =>
        listRooms(app.db, request, user.organisationId, request.query),
      );
    },
  });

  app.post('/api/rooms/', {
    config: { access: 'addresses' },
    schema: {
      tags,
      summary: "Create a room in one of the organisation's addresses (else 422 on `address_id`)",
      body: roomBodySchema,
      response: { 201: itemEnvelope },
    },
    handler: async (request, reply) => {
      const { organisationId } = currentUser(request);
      const id = await createRoom(app.db, organisationId, request.body);
      return reply.code(201).send({ data: await roomOf(organisationId, id) });
    },
  });

  app.get('/api/rooms/:id', {
    config: { access: 'addresses' },
    schema: { tags, summary: 'One room', params: idParamsSchema, response: { 200: itemEnvelope } },
    handler: async (request) => {
      const { organisationId } = currentUser(request);
      return { data: await roomOf(organisationId, request.params.id) };
    },
  });

  app.put('/api/rooms/:id', {
    config: { access: 'addresses' },
    schema: {
      tags,
      summary: 'Replace the fields of a room; a new address_id moves it with its devices',
      params: idParamsSchema,
      body: roomBodySchema,
      response: { 200: itemEnvelope },
    },
    handler: async (request) => {
      const { organisationId } = currentUser(request);
      await updateRoom(app.db, organisationId, request.params.id, request.body);
      return { data: await roomOf(organisationId, request.params.id) };
    },
  });

  app.delete('/api/rooms/:id', {
    config: { access: 'addresses' },
    schema: {
      tags,
      summary: 'Delete a room with no devices (else 422 on `room`)',
      params: idParamsSchema,
    },
    handler: async (request, reply) => {
      const { organisationId } = currentUser(request);
      await deleteRoom(app.db, organisationId, request.params.id);
      return reply.code(204).send();
    },
  });
}
