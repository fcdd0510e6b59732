import { formatIssue, pickLocale, translate, type Locale } from '@kontrol/contracts';
import fp from 'fastify-plugin';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isResponseSerializationError } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { storageFailure, type StorageFailure } from '@kontrol/db';
import {
  DependencyUnavailableError,
  FieldValidationError,
  HttpError,
  RequestValidationError,
} from './http-errors.js';
import { API_HEADERS, securityHeadersFor } from './security.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The language of the answer, from Accept-Language (or the signed-in user's choice). */
    locale: Locale;
  }
}

/** Fastify's own client errors, mapped to catalog messages. */
const FASTIFY_CODES: Record<string, { status: number; key: Parameters<typeof translate>[1] }> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { status: 415, key: 'http.unsupported_media' },
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, key: 'http.payload_too_large' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { status: 400, key: 'http.bad_json' },
  FST_ERR_CTP_INVALID_JSON_BODY: { status: 400, key: 'http.bad_json' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { status: 400, key: 'http.bad_request' },
  FST_ERR_BAD_URL: { status: 400, key: 'http.bad_url' },
  FST_ERR_MAX_PARAM_LENGTH: { status: 414, key: 'http.url_too_long' },
};

/**
 * The storage failures (packages/db/src/failures.ts) and what a person is told of each. They are
 * all 503 with Retry-After: the request may be repeated unchanged once the database answers, the
 * disk has room or is writable again (docs/operations.md, "Faults"), and nothing was saved.
 */
const STORAGE_FAILURES: Record<StorageFailure, { key: Parameters<typeof translate>[1]; log: string }> = {
  unavailable: { key: 'http.database_unavailable', log: 'database unavailable' },
  full: { key: 'http.storage_full', log: 'database disk is full' },
  read_only: { key: 'http.storage_read_only', log: 'database storage is read-only' },
};
const STORAGE_RETRY_AFTER_S = '5';

function send(reply: FastifyReply, status: number, body: object) {
  return reply.code(status).type('application/json; charset=utf-8').send(body);
}

/**
 * Laravel's `errors` object (dotted field path → messages, worded as `issuesToFieldErrors` words
 * them), collected in a Map: a field name can be any key the client sent (an unknown key is
 * reported by its name), and a plain object would find `constructor` or `toString` on its
 * prototype and fail on it.
 */
function requestFieldErrors(issues: readonly z.core.$ZodIssue[], locale: Locale): Record<string, string[]> {
  const errors = new Map<string, string[]>();
  for (const issue of issues) {
    const paths =
      issue.code === 'unrecognized_keys' ? issue.keys.map((key) => [...issue.path, key]) : [issue.path];
    for (const path of paths) {
      const field = path.map(String).join('.') || '_';
      errors.set(field, [...(errors.get(field) ?? []), formatIssue(issue, locale)]);
    }
  }
  return Object.fromEntries(errors);
}

/** The error answer; should working it out fail, a plain 500 (never Fastify's, which shows the message). */
function handleError(
  this: FastifyInstance,
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
) {
  try {
    return answerError(error, request, reply);
  } catch (failure) {
    request.log.error({ err: failure, cause: error }, 'the error handler failed');
    return send(reply, 500, { message: translate(request.locale, 'http.server_error') });
  }
}

function answerError(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  const locale: Locale = request.locale;
  const t = (key: Parameters<typeof translate>[1], params?: Record<string, string | number>) =>
    translate(locale, key, params);

  if (error instanceof RequestValidationError) {
    return send(reply, 422, {
      message: t('validation.failed'),
      errors: requestFieldErrors(error.issues, locale),
    });
  }
  if (error instanceof FieldValidationError) {
    const errors = Object.fromEntries(
      Object.entries(error.fields).map(([field, keys]) => [
        field,
        keys.map((key) => t(key, { ...error.params[key], ...error.fieldParams[field] })),
      ]),
    );
    return send(reply, 422, { message: t('validation.failed'), errors });
  }
  if (error instanceof HttpError) {
    reply.headers(error.headers);
    return send(reply, error.statusCode, { message: t(error.messageKey, error.params) });
  }
  const known = error.code ? FASTIFY_CODES[error.code] : undefined;
  if (known) return send(reply, known.status, { message: t(known.key) });

  if (error instanceof DependencyUnavailableError) {
    request.log.error({ err: error }, error.logMessage);
    reply.header('retry-after', '5');
    return send(reply, 503, { message: t(error.messageKey) });
  }
  const failure = storageFailure(error);
  if (failure) {
    const { key, log } = STORAGE_FAILURES[failure];
    request.log.error({ err: error }, log);
    reply.header('retry-after', STORAGE_RETRY_AFTER_S);
    return send(reply, 503, { message: t(key) });
  }
  if (typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500) {
    return send(reply, error.statusCode, { message: t('http.bad_request') });
  }
  if (isResponseSerializationError(error)) {
    request.log.error({ err: error, issues: error.cause.issues }, 'response does not match its schema');
  } else {
    request.log.error({ err: error }, 'unhandled error');
  }
  return send(reply, 500, { message: t('http.server_error') });
}

/**
 * Fastify's `frameworkErrors`: the errors it meets while routing (a malformed URL such as
 * `/api/%ff`, a path parameter over its length), before any hook ran. Answered like every other
 * error, with the security headers the hooks would have set.
 */
export function frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  request.locale = pickLocale(request.headers['accept-language']);
  reply.headers(securityHeadersFor(request.url));
  handleError.call(request.server, error, request, reply);
}

const CLIENT_ERRORS: Record<string, { status: number; key: Parameters<typeof translate>[1] }> = {
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, key: 'http.request_timeout' },
  HPE_HEADER_OVERFLOW: { status: 431, key: 'http.headers_too_large' },
};

/**
 * Fastify's `clientErrorHandler`: a request Node could not parse (a broken request line, headers
 * over their limit, a request that did not arrive in time) never reaches Fastify. The answer is
 * still JSON `{message}` with the API's security headers; with no headers to read a language from,
 * the message is Russian, the console's default.
 */
export function clientErrorHandler(error: NodeJS.ErrnoException, socket: Socket) {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const { status, key } = (error.code ? CLIENT_ERRORS[error.code] : undefined) ?? {
    status: 400,
    key: 'http.bad_request' as const,
  };
  const body = JSON.stringify({ message: translate('ru', key) });
  const headers = Object.entries({
    ...API_HEADERS,
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(body)),
    connection: 'close',
  })
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  if (socket.writable) socket.write(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${headers}\r\n${body}`);
  socket.destroy(error);
}

/** One error shape for the whole API: `{message}`, or `{message, errors}` for 422 (docs/api.md). */
export const errorsPlugin = fp(
  async (app: FastifyInstance) => {
    app.setErrorHandler(handleError);
  },
  { name: 'errors' },
);
