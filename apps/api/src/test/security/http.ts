import type { FastifyInstance, InjectOptions } from 'fastify';
import { TestClient } from '../http-client.js';

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  /** The body as text (a stream's first bytes only: Server-Sent Events are not waited for). */
  body: string;
}

/** Cookies and the CSRF token of one signed-in (or guest) browser, sent by hand. */
export interface Session {
  cookie: string;
  xsrf: string;
}

export function sessionOf(client: TestClient): Session {
  return {
    cookie: [...client.cookies].map(([name, value]) => `${name}=${value}`).join('; '),
    xsrf: decodeURIComponent(client.cookies.get('XSRF-TOKEN') ?? ''),
  };
}

/** A signed-in browser of `email`, as a {@link Session}. */
export async function signIn(app: FastifyInstance, email: string, password: string): Promise<Session> {
  const client = new TestClient(app);
  await client.login(email, password);
  return sessionOf(client);
}

/** A signed-out browser that has its guest session and CSRF cookie. */
export async function guest(app: FastifyInstance, ip?: string): Promise<Session> {
  return sessionOf(await TestClient.visitor(app, ip ? { ip } : {}));
}

export interface SendOptions {
  method: string;
  url: string;
  session?: Session;
  /** Echo the session's CSRF token (default true). */
  xsrf?: boolean;
  /** A JS value is sent as JSON; a Buffer or string as it is, with `contentType`. */
  json?: unknown;
  raw?: Buffer | string;
  contentType?: string;
  headers?: Record<string, string>;
  remoteAddress?: string;
}

/**
 * One request through `app.inject`, answered as soon as the response is complete, or, for a
 * Server-Sent Events stream (`GET /api/live`), as soon as its headers are out: the stream is
 * dropped then, so no route can hang the suite.
 */
export async function send(app: FastifyInstance, options: SendOptions): Promise<Answer> {
  const headers: Record<string, string> = { 'accept-language': 'en', ...options.headers };
  if (options.session) {
    headers.cookie = options.session.cookie;
    if (options.xsrf !== false && options.session.xsrf) headers['x-xsrf-token'] = options.session.xsrf;
  }
  let payload: InjectOptions['payload'];
  if (options.raw !== undefined) {
    payload = options.raw;
    headers['content-type'] = options.contentType ?? 'application/json';
  } else if (options.json !== undefined) {
    payload = JSON.stringify(options.json);
    headers['content-type'] = 'application/json';
  }
  const response = await app.inject({
    method: options.method as InjectOptions['method'],
    url: options.url,
    headers,
    ...(payload === undefined ? {} : { payload }),
    ...(options.remoteAddress ? { remoteAddress: options.remoteAddress } : {}),
    payloadAsStream: true,
  });
  const stream = response.stream();
  const type = String(response.headers['content-type'] ?? '');
  if (type.startsWith('text/event-stream')) {
    stream.destroy();
    return { status: response.statusCode, headers: response.headers, body: '' };
  }
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Uint8Array));
  return { status: response.statusCode, headers: response.headers, body: Buffer.concat(chunks).toString() };
}

/** `{message}` (and `{errors}` for 422): the API's one error shape. */
export function isErrorShape(answer: Answer): boolean {
  try {
    const body = JSON.parse(answer.body) as Record<string, unknown>;
    if (typeof body.message !== 'string' || body.message.length === 0) return false;
    const extra = Object.keys(body).filter((key) => key !== 'message');
    return extra.length === 0 || (extra.length === 1 && extra[0] === 'errors');
  } catch {
    return false;
  }
}

/**
 * Signs of a stack trace or of the server's files in an answer: V8's `    at fn (file:line:col)`
 * frames, and paths into the sources or node_modules.
 */
const LEAKS = [
  /node_modules/,
  /\n\s+at\s+\S/,
  /\bat\s+[^\s()]+\s+\([^()]*:\d+:\d+\)/,
  /(?:file:\/\/)?\/[^\s"']*\/(?:src|node_modules|dist)\/[^\s"']*\.(?:ts|js|mjs|cjs)\b/,
];

export function leaksInternals(body: string): RegExp | undefined {
  return LEAKS.find((pattern) => pattern.test(body));
}
