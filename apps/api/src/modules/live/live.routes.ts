import {
  DEVICE_VIEWING_MODULES,
  EVENT_READER_MODULES,
  LIVE_PATH,
  LIVE_SAMPLE_MODULES,
  liveQuerySchema,
  type ModuleSlug,
} from '@kontrol/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { FieldValidationError, forbidden } from '../../lib/http-errors.js';
import { currentUser } from '../../plugins/auth.js';
import { LiveHub } from './live.hub.js';
import { countOwnDevices } from './live.repository.js';

/** `GET /api/live`: the organisation's live updates as Server-Sent Events (docs/live-updates.md). */
export async function liveRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const hub = new LiveHub(app.db, app.log);
  app.addHook('preClose', (done) => {
    hub.close();
    done();
  });

  app.get(LIVE_PATH, {
    config: { access: 'user' },
    schema: {
      tags: ['live'],
      summary:
        'Live updates as Server-Sent Events: `devices` (devices that reported: last online, state, ' +
        'readings), `samples` (new raw samples of the devices named in `devices`), `device_events` and ' +
        "`notifications` (the caller's own new notifications that pass their settings)",
      querystring: liveQuerySchema,
    },
    handler: async (request, reply) => {
      const user = currentUser(request);
      const holds = (modules: readonly ModuleSlug[]) => modules.some((slug) => user.moduleSlugs.has(slug));
      const samplesOf = request.query.devices ?? [];
      if (samplesOf.length > 0) {
        if (!holds(LIVE_SAMPLE_MODULES)) throw forbidden();
        if ((await countOwnDevices(app.db, user.organisationId, samplesOf)) !== samplesOf.length)
          throw new FieldValidationError({ devices: ['field.exists'] });
      }
      const lastEventId = Number(request.headers['last-event-id']);
      const cursors = await hub.startingCursors(samplesOf);
      reply.hijack();
      hub.add({
        organisationId: user.organisationId,
        userId: user.id,
        devices: holds(DEVICE_VIEWING_MODULES),
        events: holds(EVENT_READER_MODULES),
        cursors,
        lastEventId: Number.isSafeInteger(lastEventId) && lastEventId > 0 ? lastEventId : undefined,
        stream: reply.raw,
      });
    },
  });
}
