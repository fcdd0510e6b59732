import { PassThrough } from 'node:stream';
import {
  bindIdsBodySchema,
  crcFileSchema,
  idParamSchema,
  idParamsSchema,
  recipeBindSchema,
  recipesUploadBodySchema,
  setUploadBodySchema,
  uploadStatusSchema,
} from '@kontrol/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { attachment } from '../../lib/csv.js';
import { currentUser } from '../../plugins/auth.js';
import { DEVICE_ID } from '../devices/devices.routes.js';
import {
  crcFile,
  deployRecipes,
  deploySet,
  programFiles,
  recipeBinds,
  removeBinds,
  uploadStatus,
  type ProgramDownload,
} from './recipe-deploy.service.js';

const tags = ['recipes'];
const access = { access: 'recipes' } as const;
const statusEnvelope = z.object({ data: uploadStatusSchema });

/** A zip of the files, streamed (archiver, loaded by the first one, as the Excel downloads). */
async function zipOf(download: ProgramDownload) {
  const { ZipArchive } = await import('archiver');
  const output = new PassThrough();
  const zip = new ZipArchive({ zlib: { level: 6 } });
  zip.on('error', (error) => output.destroy(error));
  zip.pipe(output);
  for (const file of download.files) zip.append(file.bytes, { name: file.name });
  zip.finalize().catch((error: unknown) => output.destroy(error as Error));
  return output;
}

/**
 * Deployment of recipes to devices (docs/contract.md, "Equipment" and "Recipes and sets"; docs/recipes.md,
 * "Deployment"): what a device is to hold is written here as binds; the gateway's dispatcher
 * sends them (docs/device-protocol.md, "Recipes"), kicked at once when it runs in this process.
 */
export async function recipeDeployRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const deliver = () => void app.gateway.programs?.kick();

  app.post(`/api/devices/${DEVICE_ID}/recipe_set/:setId(^\\d+$)`, {
    config: access,
    schema: {
      tags,
      summary:
        'The device holds this set from now on: its recipes are queued for delivery (those installed ' +
        'at their current version stay), recipes of its previous set are removed',
      params: idParamsSchema.extend({ setId: idParamSchema }),
      response: { 200: statusEnvelope },
    },
    handler: async (request) => {
      const status = await deploySet(app.db, currentUser(request).organisationId, {
        deviceId: request.params.id,
        setId: request.params.setId,
        named: 'path',
      });
      deliver();
      return { data: status };
    },
  });

  app.post('/api/recipes_sets/upload', {
    config: access,
    schema: {
      tags,
      summary:
        '(Re)deploy a set to a device: as POST /api/devices/{id}/recipe_set/{setId}; failed and ' +
        'outdated recipes are queued again',
      body: setUploadBodySchema,
      response: { 200: statusEnvelope },
    },
    handler: async (request) => {
      const status = await deploySet(app.db, currentUser(request).organisationId, {
        deviceId: request.body.device_id,
        setId: request.body.set_id,
        named: 'body',
      });
      deliver();
      return { data: status };
    },
  });

  app.post('/api/recipes_sets/upload_recipes', {
    config: access,
    schema: {
      tags,
      summary: 'Deploy recipes on their own to a device: each is queued at its current version',
      body: recipesUploadBodySchema,
      response: { 200: statusEnvelope },
    },
    handler: async (request) => {
      const status = await deployRecipes(app.db, currentUser(request).organisationId, {
        deviceId: request.body.device_id,
        recipeIds: request.body.recipe_ids,
      });
      deliver();
      return { data: status };
    },
  });

  app.delete('/api/recipes_sets_2/delete_recipes', {
    config: access,
    schema: {
      tags,
      summary:
        'Remove binds from their devices: `removing` until the device reports the file deleted; ' +
        'one never sent is deleted at once',
      body: bindIdsBodySchema,
      response: {
        200: z.object({ data: z.object({ removing: z.array(z.number()), deleted: z.array(z.number()) }) }),
      },
    },
    handler: async (request) => {
      const result = await removeBinds(app.db, currentUser(request).organisationId, request.body.bind_ids);
      deliver();
      return { data: result };
    },
  });

  app.post('/api/recipes_sets/get_program_files', {
    config: access,
    schema: {
      tags,
      summary: 'The program files of binds of one device: one file, or a zip of several with the set file',
      body: bindIdsBodySchema,
    },
    handler: async (request, reply) => {
      const download = await programFiles(app.db, currentUser(request).organisationId, request.body.bind_ids);
      reply.header('content-disposition', attachment(download.name)).header('cache-control', 'no-store');
      if (download.kind === 'zip') return reply.type('application/zip').send(await zipOf(download));
      return reply.type('application/octet-stream').send(download.files[0]?.bytes);
    },
  });

  app.get(`/api/devices/${DEVICE_ID}/recipe_binds`, {
    config: access,
    schema: {
      tags,
      summary: "The device's recipe binds with their delivery state, by id",
      params: idParamsSchema,
      response: { 200: z.object({ data: z.array(recipeBindSchema) }) },
    },
    handler: async (request) => ({
      data: await recipeBinds(app.db, currentUser(request).organisationId, request.params.id),
    }),
  });

  app.get(`/api/devices/${DEVICE_ID}/get_crc_file`, {
    config: access,
    schema: {
      tags,
      summary: 'What the device should hold: its set file and program files with their CRC32',
      params: idParamsSchema,
      response: { 200: z.object({ data: crcFileSchema }) },
    },
    handler: async (request) => ({
      data: await crcFile(app.db, currentUser(request).organisationId, request.params.id),
    }),
  });

  app.get(`/api/devices/${DEVICE_ID}/get_upload_status`, {
    config: access,
    schema: {
      tags,
      summary: "The device's set, its binds and how many are in each delivery state",
      params: idParamsSchema,
      response: { 200: statusEnvelope },
    },
    handler: async (request) => ({
      data: await uploadStatus(app.db, currentUser(request).organisationId, request.params.id),
    }),
  });
}
