import type { IncomingMessage, ServerResponse } from 'node:http';
import { constants as zlib } from 'node:zlib';
import compress from '@fastify/compress';
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

const HELMET_OPTIONS: HelmetOptions = {
  contentSecurityPolicy: {
    useDefaults: false,
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", 'data:', 'blob:'],
      fontSrc: ["'self'", 'data:'],
      connectSrc: ["'self'"],
      objectSrc: ["'none'"],
      baseUri: ["'self'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
    },
  },
  crossOriginEmbedderPolicy: false,
  // Same rule as CSP frame-ancestors 'none', for browsers that only know the old header.
  frameguard: { action: 'deny' },
  strictTransportSecurity: false,
};

/**
 * helmet's headers, worked out once. They do not depend on the request (no CSP nonces), and
 * @fastify/helmet rebuilt helmet's middleware on every request — a measurable share of a small
 * API call (docs/decisions.md).
 */
export function securityHeaders(options: HelmetOptions = HELMET_OPTIONS): Record<string, string> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader: (name: string, value: unknown) => {
      headers[name.toLowerCase()] = String(value);
    },
    removeHeader: (name: string) => {
      delete headers[name.toLowerCase()];
    },
  };
  helmet(options)({} as IncomingMessage, response as unknown as ServerResponse, () => undefined);
  return headers;
}

/**
 * What an API answer (JSON, never a document) needs, as OWASP's REST security cheat sheet lists it:
 * no content may load or frame it, no sniffing, no referrer, no other site may embed it. The
 * document headers of helmet (cross-origin opener policy, origin-agent cluster, DNS prefetch, the
 * legacy IE and Flash ones) say nothing for JSON, and every header is validated and written on
 * every answer.
 */
export const API_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'cross-origin-resource-policy': 'same-origin',
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
};

/** `/api/…` answers JSON (or a file with its own headers), except the API's documentation pages. */
function isApiAnswer(url: string): boolean {
  return url.startsWith('/api/') && !url.startsWith('/api/docs');
}

let documentHeaders: Record<string, string> | undefined;

/** The security headers of an answer to `url`: {@link API_HEADERS} for the API, helmet's for the rest. */
export function securityHeadersFor(url: string): Readonly<Record<string, string>> {
  if (isApiAnswer(url)) return API_HEADERS;
  documentHeaders ??= securityHeaders();
  return documentHeaders;
}

/**
 * Security headers on every response (CSP, nosniff, frame-ancestors; HSTS only over HTTPS, where it
 * means something): helmet's for pages and files, {@link API_HEADERS} for API answers. And br/gzip
 * compression of everything compressible.
 */
export const securityPlugin = fp(
  async (app: FastifyInstance) => {
    app.addHook('onRequest', (request, reply, done) => {
      reply.headers(securityHeadersFor(request.url));
      if (request.protocol === 'https') {
        reply.header('strict-transport-security', 'max-age=31536000; includeSubDomains');
      }
      done();
    });
    await app.register(compress, {
      encodings: ['br', 'gzip'],
      threshold: 1024,
      // An answer held in memory up to 128 KB (a page of any list, the worktime report of 1 000
      // devices) is compressed in one call on the event loop, about 0.1 ms for a page of events and
      // 0.3 ms for the report's 89 KB; the plugin's default on two cores (8 KB) sends such a page
      // through a zlib stream on the thread pool instead, and each hop back to a busy event loop
      // waits its turn: the page's slowest answers took a third longer.
      // Through a stream, each such answer's request also reached the old generation, where only a
      // full collection frees it: 220 reports left 27 MB more heap (bench/telemetry-reads.mjs), in
      // one call 2 MB.
      syncThreshold: 128 * 1024,
      brotliOptions: { params: { [zlib.BROTLI_PARAM_QUALITY]: 4 } },
    });
  },
  { name: 'security' },
);
