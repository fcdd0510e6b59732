import {
  pagedSchema,
  idParamsSchema,
  recipeSetBodySchema,
  recipeSetSchema,
  recipesListQuerySchema,
} from '@kontrol/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser } from '../../plugins/auth.js';
import { listOrPage } from '../../lib/pagination.js';
import {
  createSet,
  deleteSet,
  getSet,
  setsListQuery,
  updateSet,
  withRecipes,
} from './recipe-sets.service.js';

const tags = ['recipe sets'];
const SET_ID = ':id(^\\d+$)';
const setsListQuerySchema = recipesListQuerySchema.omit({ search: true });
const setEnvelope = z.object({ data: recipeSetSchema });
const listResponse = z.union([
  z.object({ data: z.array(recipeSetSchema) }).strict(),
  pagedSchema(recipeSetSchema),
]);

/** docs/contract.md, "Recipes, sets and deployment": CRUD at /recipes_sets/ and /recipes_sets/{id} (docs/recipes.md). */
export async function recipeSetsRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get('/api/recipes_sets/', {
    config: { access: 'recipes', kept: { from: ['recipes'] } },
    schema: {
      tags,
      summary:
        "The organisation's recipe sets by name: all of them as {data} without `page`, else paged; " +
        'filters id, device_type_id (=, in), name (=, like)',
      querystring: setsListQuerySchema,
      response: { 200: listResponse },
    },
    handler: async (request, reply) => {
      const user = currentUser(request);
      const { page, per_page: perPage, filters } = request.query;
      return app.keptAnswers.send(request, reply, user, async () => {
        const query = setsListQuery(app.db, user.organisationId, filters);
        const listed = await listOrPage(request, query, { page, per_page: perPage }, (row) => row);
        return { ...listed, data: await withRecipes(app.db, listed.data) };
      });
    },
  });

  app.post('/api/recipes_sets/', {
    config: { access: 'recipes' },
    schema: {
      tags,
      summary: 'Create a recipe set for one device type, with its recipes in order',
      body: recipeSetBodySchema,
      response: { 201: setEnvelope },
    },
    handler: async (request, reply) => {
      const set = await createSet(app.db, currentUser(request).organisationId, request.body);
      return reply.code(201).send({ data: set });
    },
  });

  app.get(`/api/recipes_sets/${SET_ID}`, {
    config: { access: 'recipes' },
    schema: { tags, summary: 'One recipe set', params: idParamsSchema, response: { 200: setEnvelope } },
    handler: async (request) => ({
      data: await getSet(app.db, currentUser(request).organisationId, request.params.id),
    }),
  });

  app.put(`/api/recipes_sets/${SET_ID}`, {
    config: { access: 'recipes' },
    schema: {
      tags,
      summary: 'Replace a recipe set: name, description, type and the whole ordered recipe list',
      params: idParamsSchema,
      body: recipeSetBodySchema,
      response: { 200: setEnvelope },
    },
    handler: async (request) => ({
      data: await updateSet(app.db, currentUser(request).organisationId, request.params.id, request.body),
    }),
  });

  app.delete(`/api/recipes_sets/${SET_ID}`, {
    config: { access: 'recipes' },
    schema: {
      tags,
      summary: 'Delete a recipe set (its recipes stay; devices holding it hold no set)',
      params: idParamsSchema,
    },
    handler: async (request, reply) => {
      await deleteSet(app.db, currentUser(request).organisationId, request.params.id);
      return reply.code(204).send();
    },
  });
}
