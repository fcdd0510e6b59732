import type { FastifyRequest, FastifyServerOptions } from 'fastify';
import pino, { type DestinationStream } from 'pino';

/**
 * Request log lines without the secrets some links carry (docs/security.md "Logs"): a log is read
 * by more people, kept longer and copied further than the links themselves, which each open an
 * account, a chat binding or a payment.
 */

export const REDACTED = '[redacted]';

/** Query parameters whose value is a secret: reset and invitation links, one-time login links. */
const SECRET_QUERY_PARAMETERS = new Set(['token', 'auth_token']);

/** Paths whose last segment is a secret: e-mail verification, Telegram binding, sandbox payment. */
const SECRET_PATH_SEGMENT = /(\/api\/(?:email\/verify|integrations\/telegram|payment\/sandbox)\/)[^/?#]+/;

/** A URL as a request line carries it, with every secret segment and parameter value replaced. */
export function redactUrl(url: string): string {
  const queryStart = url.indexOf('?');
  const path = queryStart === -1 ? url : url.slice(0, queryStart);
  const redactedPath = path.replace(SECRET_PATH_SEGMENT, `$1${REDACTED}`);
  if (queryStart === -1) return redactedPath;
  const pairs = url
    .slice(queryStart + 1)
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      const name = equals === -1 ? pair : pair.slice(0, equals);
      return SECRET_QUERY_PARAMETERS.has(decodedName(name)) ? `${name}=${REDACTED}` : pair;
    });
  return `${redactedPath}?${pairs.join('&')}`;
}

/** A parameter's name as the console and the server read it (`auth%5Ftoken` is `auth_token`). */
function decodedName(name: string): string {
  try {
    return decodeURIComponent(name.replace(/\+/g, ' ')).toLowerCase();
  } catch {
    return name.toLowerCase();
  }
}

/** Fastify's own request serializer, with the URL redacted. */
function serializeRequest(request: FastifyRequest) {
  return {
    method: request.method,
    url: redactUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

/** pino's error serializer; a message that quotes the URL (a malformed one, say) is redacted too. */
function serializeError(error: Error) {
  const serialized = pino.stdSerializers.err(error);
  return {
    ...serialized,
    message: redactUrlsIn(serialized.message),
    stack: redactUrlsIn(serialized.stack),
  };
}

function redactUrlsIn(text: string): string {
  return text.replace(/\/api\/[^\s'"]*|[^\s'"]*\?[^\s'"]*/g, (url) => redactUrl(url));
}

/** The options every Kontrol HTTP server logs with (the API's and the gateway's). */
export function loggerOptions(
  level: string,
  stream?: DestinationStream,
): Exclude<FastifyServerOptions['logger'], boolean | undefined> {
  return {
    level,
    serializers: { req: serializeRequest, err: serializeError },
    ...(stream ? { stream } : {}),
  };
}
