import multipart from '@fastify/multipart';
import {
  ADDRESS_IMAGE_MAX_BYTES,
  addressSchema,
  type Address,
  type AddressImageType,
} from '@kontrol/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { HttpError } from '../../lib/http-errors.js';
import { currentUser } from '../../plugins/auth.js';
import { IMAGE_EXTENSIONS, type AddressImageStore } from './address-image.js';
import {
  imageMissing,
  imageTooLarge,
  openAddressImage,
  removeAddressImage,
  replaceAddressImage,
  type AddressImageDeps,
} from './address-image.service.js';

const tags = ['addresses'];
const addressIdParams = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });
/** The image URL carries `?v=<time of upload>`, so a day in the browser's own cache is safe. */
const IMAGE_CACHE_CONTROL = 'private, max-age=86400';
/** One file, a few small form fields at most: nothing else is read from an upload. */
const UPLOAD_LIMITS = {
  fileSize: ADDRESS_IMAGE_MAX_BYTES,
  files: 1,
  fields: 20,
  fieldSize: 64 * 1024,
  parts: 25,
  headerPairs: 100,
};

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
  await fastify.register(multipart, { limits: UPLOAD_LIMITS, throwFileSizeLimit: true });
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { images, addressOf } = options;
  const deps = (request: FastifyRequest): AddressImageDeps => ({ db: app.db, images, log: request.log });

  /** The first file part of the form, whatever its field name (the console sends `image`). */
  const readUpload = (request: FastifyRequest) => async () => {
    if (!request.isMultipart()) throw imageMissing();
    let bytes: Buffer | undefined;
    try {
      const part = await request.file({ limits: UPLOAD_LIMITS });
      bytes = await part?.toBuffer();
    } catch (error) {
      if (error instanceof app.multipartErrors.RequestFileTooLargeError) throw imageTooLarge();
      // Busboy's own complaints (a body cut short, a broken boundary) carry no status or code.
      if (error instanceof Error && !('statusCode' in error) && !('code' in error)) {
        throw new HttpError(400, 'http.bad_request');
      }
      throw error;
    }
    if (!bytes) throw imageMissing();
    return bytes;
  };

  app.post('/api/addresses/:id/image', {
    config: { access: 'addresses' },
    schema: {
      tags,
      summary:
        'Upload the address image (multipart, the first file part): JPEG, PNG or WebP by its bytes, ' +
        'at most ADDRESS_IMAGE_MAX_BYTES; replaces the previous image',
      consumes: ['multipart/form-data'],
      params: addressIdParams,
      response: { 200: z.object({ data: addressSchema }) },
    },
    handler: async (request) => {
      const { organisationId } = currentUser(request);
      const { id } = request.params;
      await replaceAddressImage(deps(request), organisationId, id, readUpload(request));
      return { data: await addressOf(organisationId, id) };
    },
  });

  app.get('/api/addresses/:id/image', {
    config: { access: 'addresses' },
    schema: {
      tags,
      summary: 'The address image, inline, with the type found in its bytes; 404 when there is none',
      params: addressIdParams,
    },
    handler: async (request, reply) => {
      const { organisationId } = currentUser(request);
      const { id } = request.params;
      const { handle, type } = await openAddressImage(deps(request), organisationId, id);
      let size: number;
      try {
        size = (await handle.stat()).size;
      } catch (error) {
        await handle.close();
        throw error;
      }
      const extension = IMAGE_EXTENSIONS[type as AddressImageType] ?? 'bin';
      return reply
        .headers({
          'content-type': type,
          'content-length': String(size),
          'content-disposition': `inline; filename="address-${id}.${extension}"`,
          'x-content-type-options': 'nosniff',
          // Opened on its own, the file can run nothing and load nothing, whatever it holds.
          'content-security-policy': "default-src 'none'; sandbox",
          'cache-control': IMAGE_CACHE_CONTROL,
        })
        .send(handle.createReadStream());
    },
  });

  app.delete('/api/addresses/:id/image', {
    config: { access: 'addresses' },
    schema: {
      tags,
      summary: 'Remove the address image (204 also when there was none)',
      params: addressIdParams,
    },
    handler: async (request, reply) => {
      const { organisationId } = currentUser(request);
      await removeAddressImage(deps(request), organisationId, request.params.id);
      return reply.code(204).send();
    },
  });
}
