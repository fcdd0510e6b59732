import {
  pagedSchema,
  idParamsSchema,
  recipeBindBodySchema,
  recipeBodySchema,
  recipeSchema,
  recipesListQuerySchema,
  STEP_MODES,
} from '@kontrol/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { join } from 'node:path';
import { z } from 'zod';
import { ImageFileStore } from '../../lib/image-files.js';
import { currentUser } from '../../plugins/auth.js';
import { listOrPage } from '../../lib/pagination.js';
import { recipeImageRoutes } from './recipe-image.routes.js';
import { recipeSetsRoutes } from './recipe-sets.routes.js';
import {
  bindRecipeToSets,
  createRecipe,
  deleteRecipe,
  duplicateRecipe,
  getRecipe,
  recipesListQuery,
  updateRecipe,
  withSetIds,
  type RecipeDeps,
} from './recipes.service.js';

const tags = ['recipes'];
const RECIPE_ID = ':id(^\\d+$)';
/** A stored step as it is answered (the contract's `steps` are typed, not described). */
const stepOutputSchema = z.object({
  mode: z.enum(STEP_MODES),
  temperature: z.number().int(),
  humidity: z.number().int().nullable(),
  fan_speed: z.number().int().nullable(),
  duration_seconds: z.number().int().nullable(),
  core_temperature: z.number().int().nullable(),
  prompt: z.string().nullable(),
});
const recipeOutputSchema = recipeSchema.extend({ steps: z.array(stepOutputSchema) });
const recipeEnvelope = z.object({ data: recipeOutputSchema });
// The whole list first, strict, so a paged answer (with links and meta) fails it at once.
const listResponse = z.union([
  z.object({ data: z.array(recipeOutputSchema) }).strict(),
  pagedSchema(recipeOutputSchema),
]);

/**
 * docs/contract.md, "Recipes, sets and deployment": recipes (CRUD, duplicate, bind to sets), their images and recipe
 * sets (docs/recipes.md). Everything under the `recipes` module, in the caller's organisation only.
 */
export async function recipesRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const images = new ImageFileStore(join(app.config.uploadsDir, 'recipes'));
  const deps = (request: FastifyRequest): RecipeDeps => ({ db: app.db, images, log: request.log });

  app.get('/api/recipes/', {
    config: { access: 'recipes', kept: { from: ['recipes'] } },
    schema: {
      tags,
      summary:
        "The organisation's recipes by name: all of them as {data} without `page` (reference data), " +
        'else paged; `search` in name and category; filters device_type_id (=, in), category (=, like), ' +
        'set_id (=)',
      querystring: recipesListQuerySchema,
      response: { 200: listResponse },
    },
    handler: async (request, reply) => {
      const user = currentUser(request);
      const { page, per_page: perPage, filters, search } = request.query;
      return app.keptAnswers.send(request, reply, user, async () => {
        const query = recipesListQuery(app.db, user.organisationId, { filters, search });
        const listed = await listOrPage(request, query, { page, per_page: perPage }, (row) => row);
        return { ...listed, data: await withSetIds(app.db, listed.data) };
      });
    },
  });

  app.post('/api/recipes/', {
    config: { access: 'recipes' },
    schema: {
      tags,
      summary: 'Create a recipe (version 1) with its program file and, given set_ids, its sets',
      body: recipeBodySchema,
      response: { 201: recipeEnvelope },
    },
    handler: async (request, reply) => {
      const recipe = await createRecipe(app.db, currentUser(request).organisationId, request.body);
      return reply.code(201).send({ data: recipe });
    },
  });

  app.get(`/api/recipes/${RECIPE_ID}`, {
    config: { access: 'recipes' },
    schema: { tags, summary: 'One recipe', params: idParamsSchema, response: { 200: recipeEnvelope } },
    handler: async (request) => ({
      data: await getRecipe(app.db, currentUser(request).organisationId, request.params.id),
    }),
  });

  app.put(`/api/recipes/${RECIPE_ID}`, {
    config: { access: 'recipes' },
    schema: {
      tags,
      summary:
        'Replace a recipe; its version moves when its program file changes (name, type, steps); ' +
        'its sets are replaced when set_ids is given',
      params: idParamsSchema,
      body: recipeBodySchema,
      response: { 200: recipeEnvelope },
    },
    handler: async (request) => ({
      data: await updateRecipe(
        deps(request),
        currentUser(request).organisationId,
        request.params.id,
        request.body,
      ),
    }),
  });

  app.delete(`/api/recipes/${RECIPE_ID}`, {
    config: { access: 'recipes' },
    schema: {
      tags,
      summary: 'Delete a recipe no device holds (else 422 on `recipe`); its image goes when unused',
      params: idParamsSchema,
    },
    handler: async (request, reply) => {
      await deleteRecipe(deps(request), currentUser(request).organisationId, request.params.id);
      return reply.code(204).send();
    },
  });

  app.post(`/api/recipes/${RECIPE_ID}/duplicate`, {
    config: { access: 'recipes' },
    schema: {
      tags,
      summary: 'Copy a recipe as «<name> (копия)» / "(copy)": same steps, version 1, in no set',
      params: idParamsSchema,
      response: { 201: recipeEnvelope },
    },
    handler: async (request, reply) => {
      const { organisationId } = currentUser(request);
      const copy = await duplicateRecipe(app.db, organisationId, request.params.id, request.locale);
      return reply.code(201).send({ data: copy });
    },
  });

  app.post(`/api/recipes/${RECIPE_ID}/bind_to_sets`, {
    config: { access: 'recipes' },
    schema: {
      tags,
      summary: "Recipe bind: the recipe's sets become exactly set_ids (new ones at their end)",
      params: idParamsSchema,
      body: recipeBindBodySchema,
      response: { 200: recipeEnvelope },
    },
    handler: async (request) => ({
      data: await bindRecipeToSets(
        app.db,
        currentUser(request).organisationId,
        request.params.id,
        request.body.set_ids,
      ),
    }),
  });

  await app.register(recipeImageRoutes, { images });
  await app.register(recipeSetsRoutes);
}
