import { type Address, type AddressImageType, addressSchema, idParamsSchema } from '@kontrol/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { imageResponseHeaders, openFileSize } from '../../lib/image-files.js';
import { acceptImageUploads, readImageUpload } from '../../lib/image-upload.js';
import { currentUser } from '../../plugins/auth.js';
import { IMAGE_EXTENSIONS, type AddressImageStore } from './address-image.js';
import {
  openAddressImage,
  removeAddressImage,
  replaceAddressImage,
  type AddressImageDeps,
} from './address-image.service.js';

const tags = ['addresses'];

export interface AddressImageRoutesOptions {
  images: AddressImageStore;
  /** The address as the API answers it; 404 when the organisation has no such address. */
  addressOf: (organisationId: number, addressId: number) => Promise<Address>;
}

/**
 * `POST|GET|DELETE /api/addresses/{id}/image`. Multipart is parsed in this scope only, so no
 * other route accepts an upload it would never read.
 */
export async function addressImageRoutes(fastify: FastifyInstance, options: AddressImageRoutesOptions) {
  await acceptImageUploads(fastify);
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { images, addressOf } = options;
  const deps = (request: FastifyRequest): AddressImageDeps => ({ db: app.db, images, log: request.log });

  app.post('/api/addresses/:id/image', {
    config: { access: 'addresses' },
    schema: {
      tags,
      summary:
        'Upload the address image (multipart, the first file part): JPEG, PNG or WebP by its bytes, ' +
        'at most ADDRESS_IMAGE_MAX_BYTES and IMAGE_MAX_SIDE_PX/IMAGE_MAX_PIXELS by its header; ' +
        'replaces the previous image',
      consumes: ['multipart/form-data'],
      params: idParamsSchema,
      response: { 200: z.object({ data: addressSchema }) },
    },
    handler: async (request) => {
      const { organisationId } = currentUser(request);
      const { id } = request.params;
      await replaceAddressImage(deps(request), organisationId, id, () => readImageUpload(request));
      return { data: await addressOf(organisationId, id) };
    },
  });

  app.get('/api/addresses/:id/image', {
    config: { access: 'addresses' },
    schema: {
      tags,
      summary: 'The address image, inline, with the type found in its bytes; 404 when there is none',
      params: idParamsSchema,
    },
    handler: async (request, reply) => {
      const { organisationId } = currentUser(request);
      const { id } = request.params;
      const { handle, type } = await openAddressImage(deps(request), organisationId, id);
      const size = await openFileSize(handle);
      const extension = IMAGE_EXTENSIONS[type as AddressImageType] ?? 'bin';
      return reply
        .headers(imageResponseHeaders(type, size, `address-${id}.${extension}`))
        .send(handle.createReadStream());
    },
  });

  app.delete('/api/addresses/:id/image', {
    config: { access: 'addresses' },
    schema: {
      tags,
      summary: 'Remove the address image (204 also when there was none)',
      params: idParamsSchema,
    },
    handler: async (request, reply) => {
      const { organisationId } = currentUser(request);
      await removeAddressImage(deps(request), organisationId, request.params.id);
      return reply.code(204).send();
    },
  });
}
