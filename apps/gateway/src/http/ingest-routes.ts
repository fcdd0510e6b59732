import {
  INGEST_HTTP_PATH,
  MAX_MESSAGE_BYTES,
  MAX_SAMPLES_PER_MESSAGE,
  deviceLimitMessage,
  pickLocale,
  type IngestResult,
} from '@kontrol/contracts';
import { storageFailure, type StorageFailure } from '@kontrol/db';
import type { FastifyContextConfig, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { credentialHash, type DeviceDirectory, type GatewayDevice } from '../devices/device-directory.js';
import { PipelineBusyError, PipelineClosedError, type IngestPipeline } from '../ingest/pipeline.js';
import { MessageShapeError, checkSamples, messageItems } from '../ingest/samples.js';
import { DeviceLimitError, refusalPauseMs, type DeviceLimiter } from '../limits/device-limiter.js';

export const INGEST_PATH = INGEST_HTTP_PATH;
/** A full message of 10 000 samples with every optional field is about 2 MB of JSON. */
const BODY_LIMIT = MAX_MESSAGE_BYTES;
const RETRY_AFTER_S = 2;
/** While the database cannot take the samples, devices are asked to wait a little longer. */
const STORAGE_RETRY_AFTER_S = 5;

/** What a device is told when the store cannot write (devices read English: docs/device-protocol.md). */
export const STORAGE_FAILURE_MESSAGES: Record<StorageFailure, string> = {
  unavailable:
    'The telemetry store is unavailable (the database does not answer); send the samples again later.',
  full: 'The telemetry store is full (no disk space left); send the samples again later.',
  read_only: 'The telemetry store is read-only; send the samples again later.',
};

export interface IngestRoutesOptions {
  pipeline: IngestPipeline;
  directory: DeviceDirectory;
  /** The device limits (docs/device-protocol.md, "Limits"). */
  limiter: DeviceLimiter;
  rawRetentionMs: number;
  /** The route's `config` (the API declares `{access: 'device', csrf: false}`). */
  routeConfig?: FastifyContextConfig;
  /** Told of every message: stored, duplicate and rejected samples (metrics). */
  onMessage?: (counts: { accepted: number; duplicates: number; rejected: number }) => void;
}

/** The device credential of `Authorization: Bearer …`, when there is one of a sane length. */
export function bearer(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header?.startsWith('Bearer ')) return undefined;
  const token = header.slice('Bearer '.length).trim();
  return token.length > 0 && token.length <= 256 ? token : undefined;
}

function refuse(reply: FastifyReply, status: number, message: string, extra: object = {}) {
  return reply.code(status).send({ message, ...extra });
}

/**
 * A device over one of its limits: 429 with `Retry-After` and which limit, in the language the
 * request asks for (`Accept-Language`), else in English, which devices read. Over the rate or the
 * day the answer waits {@link refusalPauseMs} first.
 */
async function refuseOverLimit(
  request: FastifyRequest,
  reply: FastifyReply,
  error: DeviceLimitError,
  limiter: DeviceLimiter,
) {
  const pause = refusalPauseMs(error);
  if (pause > 0) await new Promise((resolve) => setTimeout(resolve, pause));
  const accept = request.headers['accept-language'];
  const locale = accept ? pickLocale(accept) : 'en';
  const reason = error.reason === 'packet_size' ? 'rate' : error.reason;
  reply.header('retry-after', String(error.retryAfterS));
  return refuse(reply, 429, deviceLimitMessage(locale, reason, limiter.settings, error.retryAfterS), {
    reason,
  });
}

/** The device a request authenticated as, and the end of its slot (connection and message in flight). */
interface Admitted {
  device: GatewayDevice;
  release: () => void;
}

/**
 * `POST /api/ingest/v1/telemetry` (docs/device-protocol.md, "HTTP"): `Authorization: Bearer
 * <device credential>`, a sample or an array of them. 202 once the valid samples are committed,
 * with what was stored, already stored, and rejected (index and reasons); 422 when none is valid;
 * 401 for a missing or unknown credential; 429 with Retry-After over the device's limits
 * ("Limits"); 503 with Retry-After while the store is overloaded or cannot write (the database
 * does not answer, its disk is full or read-only).
 * The answers are written here rather than thrown, so the route behaves the same inside the API
 * and in a gateway process of its own.
 */
export async function ingestRoutes(app: FastifyInstance, options: IngestRoutesOptions) {
  const { limiter } = options;
  const admitted = new WeakMap<FastifyRequest, Admitted>();
  const release = (request: FastifyRequest) => admitted.get(request)?.release();

  app.post(INGEST_PATH, {
    // Devices call this all day: one log line per request would drown the rest (errors still log).
    bodyLimit: BODY_LIMIT,
    logLevel: 'warn',
    config: options.routeConfig ?? {},
    // Before the body is read: the credential, then the device's connections, messages in flight,
    // rate and day, so a refused request costs neither the upload's memory nor its parsing; its
    // connection is closed rather than its unread body received and thrown away.
    // Callback style: a hook that answers and never calls `done` ends the request there.
    preParsing: (request, reply, payload, done) => {
      // A body announced over the limit is refused first, whoever sends it (413, nothing read).
      if (Number(request.headers['content-length']) > BODY_LIMIT) return done(null, payload);
      const secret = bearer(request);
      const hash = secret ? credentialHash(secret) : undefined;
      const again = hash ? limiter.refusedAgain(hash) : undefined;
      if (again) {
        void refuseOverLimit(request, reply, again, limiter);
        return;
      }
      (secret ? options.directory.byCredential(secret) : Promise.resolve(undefined)).then(
        (device) => {
          if (!device) {
            reply.header('www-authenticate', 'Bearer').header('connection', 'close');
            void refuse(reply, 401, 'Unknown or missing device credential.');
            return;
          }
          try {
            admitted.set(request, { device, release: limiter.openHttp(device) });
          } catch (error) {
            if (!(error instanceof DeviceLimitError)) return done(error as Error);
            if (hash) limiter.rememberRefused(hash, device);
            void refuseOverLimit(request, reply, error, limiter);
            return;
          }
          done(null, payload);
        },
        (error: unknown) => {
          if (!storageFailure(error)) return done(error as Error);
          void refuseStorageFailure(request, reply, error);
        },
      );
    },
    onResponse: (request, _reply, done) => {
      release(request);
      done();
    },
    onRequestAbort: (request, done) => {
      release(request);
      done();
    },
    handler: async (request, reply) => {
      const device = admitted.get(request)?.device;
      if (!device) throw new Error('ingest: no device admitted for this request');
      let items: unknown[];
      try {
        items = messageItems(request.body);
      } catch (error) {
        if (!(error instanceof MessageShapeError)) throw error;
        return refuse(reply, 422, error.message, {
          errors: {
            _: [error.reason === 'too_many' ? `At most ${MAX_SAMPLES_PER_MESSAGE} samples.` : error.message],
          },
        });
      }
      try {
        limiter.take(device, items.length);
      } catch (error) {
        if (!(error instanceof DeviceLimitError)) throw error;
        const secret = bearer(request);
        if (secret) limiter.rememberRefused(credentialHash(secret), device);
        return refuseOverLimit(request, reply, error, limiter);
      }
      const { valid, rejected } = checkSamples(items, device, {
        now: Date.now(),
        rawRetentionMs: options.rawRetentionMs,
      });
      if (valid.length === 0) {
        const errors: Record<string, string[]> = {};
        for (const sample of rejected)
          for (const [field, messages] of Object.entries(sample.errors))
            errors[`${sample.index}.${field}`] = messages;
        options.onMessage?.({ accepted: 0, duplicates: 0, rejected: rejected.length });
        return refuse(reply, 422, items.length === 0 ? 'No samples.' : 'No valid sample.', {
          errors,
          rejected,
        });
      }
      try {
        const stored = await options.pipeline.submit(device, valid);
        options.onMessage?.({ ...stored, rejected: rejected.length });
        const result: IngestResult = { ...stored, rejected };
        return reply.code(202).send({ data: result });
      } catch (error) {
        if (error instanceof PipelineBusyError || error instanceof PipelineClosedError) {
          reply.header('retry-after', String(RETRY_AFTER_S));
          return refuse(reply, 503, error.message);
        }
        return refuseStorageFailure(request, reply, error);
      }
    },
  });
}

/**
 * A database that does not answer, a full disk or a read-only one: 503 with Retry-After and what
 * happened, nothing acknowledged (the device sends the same samples again). Any other error is
 * the server's own (500 through the error handler).
 */
function refuseStorageFailure(request: FastifyRequest, reply: FastifyReply, error: unknown) {
  const failure = storageFailure(error);
  if (!failure) throw error;
  request.log.error({ err: error, failure }, 'telemetry not stored: the database cannot take it');
  reply.header('retry-after', String(STORAGE_RETRY_AFTER_S));
  return refuse(reply, 503, STORAGE_FAILURE_MESSAGES[failure]);
}
