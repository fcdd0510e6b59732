import { LIVE_PATH, liveQuerySchema } from '@kontrol/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { FieldValidationError, forbidden, unauthenticated } from '@kontrol/server-kit';
import { currentUser } from '../../plugins/auth.js';
import { liveGrants, type LiveCredential } from './live.hub.js';

/**
 * `GET /api/live`: the organisation's live updates as Server-Sent Events (docs/live-updates.md),
 * kept by the app's live hub (`app.live`, live.hub.ts).
 */
export async function liveRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const hub = app.live;

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
      const grants = liveGrants(user);
      const samplesOf = request.query.devices ?? [];
      if (samplesOf.length > 0) {
        if (!grants.samples) throw forbidden();
        if (!(await hub.ownsDevices(user.organisationId, samplesOf)))
          throw new FieldValidationError({ devices: ['field.exists'] });
      }
      const credential: LiveCredential | undefined =
        request.authVia === 'token' && request.accessTokenId !== undefined
          ? { accessToken: request.accessTokenId }
          : request.session
            ? { session: request.session.id }
            : undefined;
      if (!credential) throw unauthenticated();
      const lastEventId = Number(request.headers['last-event-id']);
      const cursors = await hub.startingCursors(samplesOf);
      reply.hijack();
      hub.add({
        organisationId: user.organisationId,
        userId: user.id,
        devices: grants.devices,
        events: grants.events,
        cursors,
        lastEventId: Number.isSafeInteger(lastEventId) && lastEventId > 0 ? lastEventId : undefined,
        credential,
        stream: reply.raw,
      });
    },
  });
}
