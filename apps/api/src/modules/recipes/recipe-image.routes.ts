import { recipeImageSchema } from '@kontrol/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { imageResponseHeaders, openFileSize, type ImageFileStore } from '../../lib/image-files.js';
import { acceptImageUploads, readImageUpload } from '../../lib/image-upload.js';
import { currentUser } from '../../plugins/auth.js';
import { openRecipeImage, uploadRecipeImage } from './recipe-image.service.js';
import type { RecipeDeps } from './recipes.service.js';

const tags = ['recipes'];

/**
 * `POST /api/recipes/image` and `GET /api/recipes/images/{file}`. Multipart is parsed in this
 * scope only, so no other route accepts an upload it would never read.
 */
export async function recipeImageRoutes(fastify: FastifyInstance, options: { images: ImageFileStore }) {
  await acceptImageUploads(fastify);
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const deps = (request: FastifyRequest): RecipeDeps => ({
    db: app.db,
    images: options.images,
    log: request.log,
  });

  app.post('/api/recipes/image', {
    config: { access: 'recipes' },
    schema: {
      tags,
      summary:
        'Upload a recipe image (multipart, the first file part): JPEG, PNG or WebP by its bytes, at ' +
        'most ADDRESS_IMAGE_MAX_BYTES and IMAGE_MAX_SIDE_PX/IMAGE_MAX_PIXELS by its header; ' +
        "answers the name a recipe's `image` takes",
      consumes: ['multipart/form-data'],
      response: { 201: z.object({ data: recipeImageSchema }) },
    },
    handler: async (request, reply) => {
      const { organisationId } = currentUser(request);
      const bytes = await readImageUpload(request);
      return reply.code(201).send({ data: await uploadRecipeImage(deps(request), organisationId, bytes) });
    },
  });

  app.get('/api/recipes/images/:file', {
    config: { access: 'recipes' },
    schema: {
      tags,
      summary: "One of the organisation's recipe images, inline, with the type found in its bytes",
      params: z.object({ file: z.string() }),
    },
    handler: async (request, reply) => {
      const { organisationId } = currentUser(request);
      const { file } = request.params;
      const { handle, type } = await openRecipeImage(deps(request), organisationId, file);
      const size = await openFileSize(handle);
      return reply
        .headers(imageResponseHeaders(type, size, `recipe-${file}`))
        .send(handle.createReadStream());
    },
  });
}
