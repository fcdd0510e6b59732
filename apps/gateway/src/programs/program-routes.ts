import { PROGRAMS_PATH, issuesToFieldErrors, programReportSchema } from '@kontrol/contracts';
import type { Database } from '@kontrol/db';
import type { FastifyContextConfig, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { DeviceDirectory, GatewayDevice } from '../devices/device-directory.js';
import { bearer } from '../http/ingest-routes.js';
import { programBytes } from '@kontrol/domain';
import { bindOfDevice, deleteRemovedBind, settleBind } from './programs.repository.js';

export interface ProgramRoutesOptions {
  db: Kysely<Database>;
  directory: DeviceDirectory;
  /** The routes' `config` (the API declares `{access: 'device', csrf: false}`). */
  routeConfig?: FastifyContextConfig;
}

const BIND_ID = ':bindId(^\\d+$)';
const MAX_ID = 2_147_483_647;
const REPORT_BODY_LIMIT = 4 * 1024;

function refuse(reply: FastifyReply, status: number, message: string, extra: object = {}) {
  return reply.code(status).send({ message, ...extra });
}

/**
 * A device's side of recipe delivery (docs/device-protocol.md, "Recipes"), authenticated like the
 * telemetry ingest (`Authorization: Bearer <device credential>`):
 * - `GET PROGRAMS_PATH/<bind_id>`: the program file of one of the device's own binds, at the
 *   version the command named;
 * - `POST PROGRAMS_PATH/<bind_id>/report`: the CRC the device computed over what it stored, an
 *   error, or that it removed the file.
 * Answers are written here (English messages), so the routes behave the same in the API and in a
 * gateway process of its own.
 */
export async function programRoutes(app: FastifyInstance, options: ProgramRoutesOptions) {
  const { db } = options;
  const config = options.routeConfig ?? {};

  async function authenticated(request: FastifyRequest, reply: FastifyReply) {
    const secret = bearer(request);
    const device = secret ? await options.directory.byCredential(secret) : undefined;
    if (!device) {
      reply.header('www-authenticate', 'Bearer');
      refuse(reply, 401, 'Unknown or missing device credential.');
    }
    return device;
  }

  async function bindOf(device: GatewayDevice, request: FastifyRequest, reply: FastifyReply) {
    const bindId = Number((request.params as { bindId: string }).bindId);
    const bind = bindId <= MAX_ID ? await bindOfDevice(db, device.id, bindId) : undefined;
    if (!bind) refuse(reply, 404, 'No such program for this device.');
    return bind;
  }

  app.get(`${PROGRAMS_PATH}/${BIND_ID}`, { logLevel: 'warn', config }, async (request, reply) => {
    const device = await authenticated(request, reply);
    if (!device) return reply;
    const bind = await bindOf(device, request, reply);
    if (!bind) return reply;
    if (bind.state === 'removing')
      return refuse(reply, 410, 'This program is being removed from the device: do not install it.');
    if (bind.recipe_version !== bind.version)
      return refuse(
        reply,
        410,
        'The recipe has changed since this program was sent; it has to be deployed again.',
      );
    const file = programBytes({
      id: bind.recipe_id,
      version: bind.version,
      type: bind.type,
      name: bind.name,
      steps: bind.steps,
    });
    return reply
      .type('application/octet-stream')
      .header('etag', `"${file.crc}"`)
      .header('cache-control', 'no-store')
      .send(file.bytes);
  });

  app.post(
    `${PROGRAMS_PATH}/${BIND_ID}/report`,
    { logLevel: 'warn', bodyLimit: REPORT_BODY_LIMIT, config },
    async (request, reply) => {
      const device = await authenticated(request, reply);
      if (!device) return reply;
      const parsed = programReportSchema.safeParse(request.body);
      if (!parsed.success)
        return refuse(reply, 422, 'Not a report: send one of crc, removed or error.', {
          errors: issuesToFieldErrors(parsed.error.issues, 'en'),
        });
      const bind = await bindOf(device, request, reply);
      if (!bind) return reply;
      const report = parsed.data;
      const nowIso = new Date().toISOString();
      const notAwaited = () =>
        refuse(
          reply,
          409,
          bind.state === 'removing'
            ? 'This program is being removed: report removed once it is deleted.'
            : 'No delivery of this program awaits a report: a new command will follow.',
          { data: { bind_id: bind.id, state: bind.state, error: bind.error } },
        );

      if (report.removed) {
        if (bind.state !== 'removing' || !(await deleteRemovedBind(db, bind.id))) return notAwaited();
        return reply.send({ data: { bind_id: bind.id, state: 'removed', error: null } });
      }
      if (bind.state === 'queued' || bind.state === 'removing') return notAwaited();
      const outcome = report.error
        ? { state: 'failed' as const, error: report.error, reported_crc: null }
        : report.crc === bind.crc
          ? { state: 'installed' as const, error: null, reported_crc: report.crc }
          : { state: 'failed' as const, error: 'crc_mismatch', reported_crc: report.crc ?? null };
      if (!(await settleBind(db, bind.id, ['sending', 'failed', 'installed'], outcome, nowIso)))
        return notAwaited(); // a deploy moved it meanwhile
      return reply.send({ data: { bind_id: bind.id, state: outcome.state, error: outcome.error } });
    },
  );
}
