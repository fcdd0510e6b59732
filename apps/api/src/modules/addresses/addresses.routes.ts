import {
  ADDRESS_LIST_MODULES,
  addressBodySchema,
  addressSchema,
  pagedSchema,
  idParamsSchema,
  placesListQuerySchema,
} from '@kontrol/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser } from '../../plugins/auth.js';
import { AddressImageStore } from './address-image.js';
import { addressImageRoutes } from './address-image.routes.js';
import type { AddressImageDeps } from './address-image.service.js';
import {
  createAddress,
  deleteAddress,
  getAddress,
  listAddresses,
  updateAddress,
} from './addresses.service.js';

const tags = ['addresses'];
const itemEnvelope = z.object({ data: addressSchema });
// The whole list first, strict, so a paged answer (with links and meta) fails it at once.
const listResponse = z.union([
  z.object({ data: z.array(addressSchema) }).strict(),
  pagedSchema(addressSchema),
]);

/**
 * docs/contract.md, "Addresses and rooms": CRUD at /addresses/ and /addresses/{id}, and the address image
 * (docs/places-and-equipment.md). Everything under the `addresses` module, in the caller's
 * organisation only.
 */
export async function addressesRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const images = new AddressImageStore(app.config.uploadsDir);
  const deps = (request: FastifyRequest): AddressImageDeps => ({ db: app.db, images, log: request.log });
  const addressOf = (organisationId: number, addressId: number) =>
    getAddress(app.db, organisationId, addressId);

  app.get('/api/addresses/', {
    config: { access: ADDRESS_LIST_MODULES, kept: { from: ['fleet'] } },
    schema: {
      tags,
      summary:
        "The organisation's addresses by name: all of them as {data} without `page` (reference data), " +
        'else paged; filters id (=, in), name and city (=, like), full_address (like), time_zone (=, in)',
      querystring: placesListQuerySchema,
      response: { 200: listResponse },
    },
    handler: async (request, reply) => {
      const user = currentUser(request);
      return app.keptAnswers.send(request, reply, user, () =>
        listAddresses(app.db, request, user.organisationId, request.query),
      );
    },
  });

  app.post('/api/addresses/', {
    config: { access: 'addresses' },
    schema: {
      tags,
      summary: 'Create an address',
      body: addressBodySchema,
      response: { 201: itemEnvelope },
    },
    handler: async (request, reply) => {
      const { organisationId } = currentUser(request);
      const id = await createAddress(app.db, organisationId, request.body);
      return reply.code(201).send({ data: await addressOf(organisationId, id) });
    },
  });

  app.get('/api/addresses/:id', {
    config: { access: 'addresses' },
    schema: { tags, summary: 'One address', params: idParamsSchema, response: { 200: itemEnvelope } },
    handler: async (request) => {
      const { organisationId } = currentUser(request);
      return { data: await addressOf(organisationId, request.params.id) };
    },
  });

  app.put('/api/addresses/:id', {
    config: { access: 'addresses' },
    schema: {
      tags,
      summary: 'Replace the fields of an address (its image and rooms stay)',
      params: idParamsSchema,
      body: addressBodySchema,
      response: { 200: itemEnvelope },
    },
    handler: async (request) => {
      const { organisationId } = currentUser(request);
      await updateAddress(app.db, organisationId, request.params.id, request.body);
      return { data: await addressOf(organisationId, request.params.id) };
    },
  });

  app.delete('/api/addresses/:id', {
    config: { access: 'addresses' },
    schema: {
      tags,
      summary: 'Delete an address with no rooms left (else 422 on `address`); its image goes too',
      params: idParamsSchema,
    },
    handler: async (request, reply) => {
      const { organisationId } = currentUser(request);
      await deleteAddress(deps(request), organisationId, request.params.id);
      return reply.code(204).send();
    },
  });

  await app.register(addressImageRoutes, { images, addressOf });
}
