import { complaintPhotoSchema } from '@kontrol/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { imageResponseHeaders, openFileSize, type ImageFileStore } from '../../lib/image-files.js';
import { acceptImageUploads, readImageUpload } from '../../lib/image-upload.js';
import { currentUser } from '../../plugins/auth.js';
import {
  openComplaintPhoto,
  uploadComplaintPhoto,
  type ComplaintPhotoDeps,
} from './complaint-photos.service.js';

const tags = ['complaints'];

/**
 * `POST /api/alerts/photo` and `GET /api/alerts/photo/{file}`. Multipart is parsed in this scope
 * only, so no other route accepts an upload it would never read.
 */
export async function complaintPhotoRoutes(fastify: FastifyInstance, options: { photos: ImageFileStore }) {
  await acceptImageUploads(fastify);
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const deps = (request: FastifyRequest): ComplaintPhotoDeps => ({
    db: app.db,
    photos: options.photos,
    log: request.log,
  });

  app.post('/api/alerts/photo', {
    config: { access: 'requests' },
    schema: {
      tags,
      summary:
        'Upload a complaint photo (multipart, the first file part): JPEG, PNG or WebP by its bytes, at ' +
        'most ADDRESS_IMAGE_MAX_BYTES and IMAGE_MAX_SIDE_PX/IMAGE_MAX_PIXELS by its header; answers the name a ' +
        'complaint’s or a comment’s `photos` take',
      consumes: ['multipart/form-data'],
      response: { 201: z.object({ data: complaintPhotoSchema }) },
    },
    handler: async (request, reply) => {
      const { organisationId } = currentUser(request);
      const bytes = await readImageUpload(request);
      return reply.code(201).send({ data: await uploadComplaintPhoto(deps(request), organisationId, bytes) });
    },
  });

  app.get('/api/alerts/photo/:file', {
    config: { access: 'requests' },
    schema: {
      tags,
      summary: "One of the organisation's complaint photos, inline, with the type found in its bytes",
      params: z.object({ file: z.string() }),
    },
    handler: async (request, reply) => {
      const { organisationId } = currentUser(request);
      const { file } = request.params;
      const { handle, type } = await openComplaintPhoto(deps(request), organisationId, file);
      const size = await openFileSize(handle);
      return reply
        .headers(imageResponseHeaders(type, size, `complaint-${file}`))
        .send(handle.createReadStream());
    },
  });
}
