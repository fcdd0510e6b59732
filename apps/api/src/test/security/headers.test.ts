import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { connect } from 'node:net';
import { join } from 'node:path';
import { translate, type Locale } from '@kontrol/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildAddress, buildOrganisation, buildSmartDevice } from '../builders.js';
import { TestClient } from '../http-client.js';
import { buildTestApp, type TestApp } from '../test-app.js';
import { PNG_1x1, multipartImage } from './fixtures.js';
import { send } from './http.js';
import { buildAppWithRoutes, fillPath, pathParams } from './route-table.js';

/**
 * docs/security.md "Headers" and "Sessions and CSRF": the security headers of API answers and of
 * the console's pages, HSTS only over HTTPS (and only when the proxy that says so is trusted),
 * and the flags of the session and XSRF cookies.
 */

/** A console build: the page the server answers for every console path. */
const dist = mkdtempSync(join(tmpdir(), 'kontrol-security-console-'));
mkdirSync(join(dist, 'assets'));
writeFileSync(
  join(dist, 'index.html'),
  '<!doctype html><html><head><title>Kontrol</title><script type="module" src="/assets/index.js"></script></head><body><div id="root"></div></body></html>',
);
writeFileSync(join(dist, 'assets/index.js'), 'console.log(1);');
const uploadsDir = mkdtempSync(join(tmpdir(), 'kontrol-security-headers-'));

const { built, routes } = await buildAppWithRoutes({ CONSOLE_DIST: dist, UPLOADS_DIR: uploadsDir });
const app = built.app;
let proxied: TestApp;

beforeAll(async () => {
  // Behind a proxy the app trusts (nginx terminating TLS), which says how the request came.
  proxied = await buildTestApp({ CONSOLE_DIST: dist, UPLOADS_DIR: uploadsDir, TRUST_PROXY: 'true' });
});
afterAll(async () => {
  await built.close();
  await proxied?.close();
  rmSync(dist, { recursive: true, force: true });
  rmSync(uploadsDir, { recursive: true, force: true });
});

const API_CSP = "default-src 'none'; frame-ancestors 'none'";

function directives(csp: unknown): Map<string, string> {
  const text = typeof csp === 'string' ? csp : '';
  return new Map(
    text
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter((words) => words[0])
      .map(([name = '', ...values]) => [name, values.join(' ')]),
  );
}

interface CookieInfo {
  name: string;
  value: string;
  httpOnly?: boolean;
  secure?: boolean;
  sameSite?: string;
  path?: string;
}

describe('security headers', () => {
  it('an API answer: a CSP that loads and frames nothing, nosniff, DENY; no HSTS over HTTP', async () => {
    const org = await buildOrganisation(built.database.handle.db);
    const client = new TestClient(app);
    await client.login(org.admin.email, org.admin.password);
    for (const answer of [await client.get('/api/users/auth'), await app.inject('/api/users/auth')]) {
      expect([200, 401]).toContain(answer.statusCode);
      expect(answer.headers['content-security-policy']).toBe(API_CSP);
      expect(answer.headers['x-content-type-options']).toBe('nosniff');
      expect(answer.headers['x-frame-options']).toBe('DENY');
      expect(answer.headers['referrer-policy']).toBe('no-referrer');
      expect(answer.headers['strict-transport-security']).toBeUndefined();
    }
  });

  it('a console page: scripts from the site only, no plugins, frame-ancestors none, nosniff, DENY', async () => {
    for (const url of ['/auth/login', '/account/dashboard', '/']) {
      const answer = await app.inject(url);
      expect(answer.statusCode, url).toBe(200);
      expect(answer.headers['content-type']).toMatch(/^text\/html/);
      const csp = directives(answer.headers['content-security-policy']);
      expect(csp.get('default-src')).toBe("'self'");
      expect(csp.get('script-src')).toBe("'self'");
      expect(csp.get('object-src')).toBe("'none'");
      expect(csp.get('frame-ancestors')).toBe("'none'");
      expect(csp.get('base-uri')).toBe("'self'");
      expect(answer.headers['x-content-type-options']).toBe('nosniff');
      expect(answer.headers['x-frame-options']).toBe('DENY');
      expect(answer.headers['strict-transport-security']).toBeUndefined();
    }
  });

  it('every route of the table answers with a CSP, nosniff and DENY, refusals included', async () => {
    let checked = 0;
    for (const route of routes) {
      const values = Object.fromEntries(pathParams(route.url).map((name) => [name, '1']));
      const answer = await send(app, { method: route.method, url: fillPath(route.url, values) });
      checked += 1;
      expect(answer.headers['content-security-policy'], route.key).toContain("frame-ancestors 'none'");
      expect(answer.headers['x-content-type-options'], route.key).toBe('nosniff');
      expect(answer.headers['x-frame-options'], route.key).toBe('DENY');
      if (route.url.startsWith('/api/'))
        expect(answer.headers['content-security-policy'], route.key).toBe(API_CSP);
    }
    expect(checked).toBe(routes.length);
  });

  it('an uploaded image keeps a sandboxing CSP and nosniff', async () => {
    const org = await buildOrganisation(built.database.handle.db);
    const client = new TestClient(app);
    await client.login(org.admin.email, org.admin.password);
    const address = await buildAddress(built.database.handle.db, org.organisationId);
    const upload = multipartImage(PNG_1x1);
    const uploaded = await client.post(`/api/addresses/${address.id}/image`, upload.raw, {
      'content-type': upload.contentType,
    });
    expect(uploaded.statusCode, uploaded.body).toBe(200);
    const image = await client.get(`/api/addresses/${address.id}/image`);
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/png');
    expect(image.headers['x-content-type-options']).toBe('nosniff');
    expect(String(image.headers['content-security-policy'])).toContain('sandbox');
  });

  it('HSTS over HTTPS behind a trusted proxy only; a forged X-Forwarded-Proto is not believed', async () => {
    for (const url of ['/api/users/auth', '/auth/login', '/sanctum/csrf-cookie']) {
      const https = await proxied.app.inject({ url, headers: { 'x-forwarded-proto': 'https' } });
      const hsts = String(https.headers['strict-transport-security'] ?? '');
      expect(hsts, url).toMatch(/max-age=(\d+)/);
      expect(Number(/max-age=(\d+)/.exec(hsts)?.[1])).toBeGreaterThanOrEqual(31_536_000);
      expect(hsts).toContain('includeSubDomains');
      const http = await proxied.app.inject({ url, headers: { 'x-forwarded-proto': 'http' } });
      expect(http.headers['strict-transport-security'], url).toBeUndefined();
      // Without TRUST_PROXY, anyone could send the header: it is ignored.
      const forged = await app.inject({ url, headers: { 'x-forwarded-proto': 'https' } });
      expect(forged.headers['strict-transport-security'], url).toBeUndefined();
    }
  });
});

/** One request written as raw bytes over a real socket, and the answer as the server wrote it. */
async function rawRequest(port: number, request: string) {
  const bytes = await new Promise<Buffer>((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(request));
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', (error: NodeJS.ErrnoException) => {
      // The server may close as soon as it has answered, before all of a big request is written.
      if (error.code === 'ECONNRESET' || error.code === 'EPIPE') resolve(Buffer.concat(chunks));
      else reject(error);
    });
    socket.on('end', () => resolve(Buffer.concat(chunks)));
  });
  const text = bytes.toString('utf8');
  const [head = '', body = ''] = text.split('\r\n\r\n', 2);
  const [statusLine = '', ...headerLines] = head.split('\r\n');
  const headers = new Map(
    headerLines.map((line) => {
      const colon = line.indexOf(':');
      return [line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim()] as const;
    }),
  );
  return { status: Number(statusLine.split(' ')[1]), headers, body };
}

describe("error answers, Fastify's and Node's own included", () => {
  let port = 0;
  beforeAll(async () => {
    await app.listen({ port: 0, host: '127.0.0.1' });
    port = (app.server.address() as { port: number }).port;
  });

  const get = (path: string, language: Locale = 'en', extra = '') =>
    rawRequest(
      port,
      `GET ${path} HTTP/1.1\r\nHost: kontrol.test\r\nAccept-Language: ${language}\r\nConnection: close\r\n${extra}\r\n`,
    );

  function expectJsonError(
    answer: Awaited<ReturnType<typeof rawRequest>>,
    status: number,
    message: string,
    api = true,
  ) {
    expect(answer.status, answer.body).toBe(status);
    expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
    expect(JSON.parse(answer.body)).toEqual({ message });
    expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
    expect(answer.headers.get('x-frame-options')).toBe('DENY');
    expect(answer.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    if (api) expect(answer.headers.get('content-security-policy')).toBe(API_CSP);
  }

  it('a malformed URL, in the API and out of it, in the language asked', async () => {
    expectJsonError(await get('/api/%ff'), 400, translate('en', 'http.bad_url'));
    expectJsonError(await get('/api/devices/%ff', 'ru'), 400, translate('ru', 'http.bad_url'));
    expectJsonError(await get('/%ff'), 400, translate('en', 'http.bad_url'), false);
  });

  it('a path parameter over its length, an unknown route, a method a route does not have', async () => {
    expectJsonError(await get(`/api/devices/${'1'.repeat(300)}`), 414, translate('en', 'http.url_too_long'));
    expectJsonError(await get('/api/no-such-route'), 404, translate('en', 'http.not_found'));
    expectJsonError(
      await rawRequest(port, 'DELETE /api/login HTTP/1.1\r\nHost: kontrol.test\r\nConnection: close\r\n\r\n'),
      404,
      translate('ru', 'http.not_found'),
    );
  });

  it('a body over the limit (413) and a content type no route reads (415)', async () => {
    // A device's own credential: the ingest answers an unknown one 401 before it reads the body.
    const org = await buildOrganisation(built.database.handle.db);
    const device = await buildSmartDevice(built.database.handle.db, org.organisationId);
    const post = (type: string, length: number, body = '') =>
      rawRequest(
        port,
        `POST /api/ingest/v1/telemetry HTTP/1.1\r\nHost: kontrol.test\r\nAccept-Language: en\r\n` +
          `Authorization: Bearer ${device.credential}\r\nContent-Type: ${type}\r\n` +
          `Content-Length: ${length}\r\nConnection: close\r\n\r\n${body}`,
      );
    expectJsonError(
      await post('application/json', 50_000_000),
      413,
      translate('en', 'http.payload_too_large'),
    );
    expectJsonError(await post('text/xml', 3, '<a>'), 415, translate('en', 'http.unsupported_media'));
  });

  it('a request Node cannot parse: a broken request line (400), headers over their limit (431)', async () => {
    expectJsonError(
      await rawRequest(port, 'NOT AN HTTP REQUEST\r\n\r\n'),
      400,
      translate('ru', 'http.bad_request'),
    );
    expectJsonError(
      await get('/api/users/auth', 'en', `X-Filler: ${'a'.repeat(40_000)}\r\n`),
      431,
      translate('ru', 'http.headers_too_large'),
    );
  });
});

describe('session and XSRF cookies', () => {
  const byName = (answer: { cookies: unknown }) =>
    new Map((answer.cookies as CookieInfo[]).map((cookie) => [cookie.name, cookie]));

  function expectFlags(cookies: Map<string, CookieInfo>, secure: boolean) {
    const session = cookies.get('kontrol_session');
    const xsrf = cookies.get('XSRF-TOKEN');
    expect(session?.httpOnly).toBe(true);
    expect(session?.sameSite).toBe('Lax');
    expect(session?.path).toBe('/');
    expect(session?.secure === true).toBe(secure);
    // The console's scripts read XSRF-TOKEN to send it back: it must not be HttpOnly.
    expect(xsrf?.httpOnly === true).toBe(false);
    expect(xsrf?.sameSite).toBe('Lax');
    expect(xsrf?.path).toBe('/');
    expect(xsrf?.secure === true).toBe(secure);
  }

  it('kontrol_session is HttpOnly and SameSite=Lax, XSRF-TOKEN readable; Secure over HTTPS only', async () => {
    expectFlags(byName(await app.inject('/sanctum/csrf-cookie')), false);
    expectFlags(
      byName(
        await proxied.app.inject({ url: '/sanctum/csrf-cookie', headers: { 'x-forwarded-proto': 'https' } }),
      ),
      true,
    );
    expectFlags(
      byName(
        await proxied.app.inject({ url: '/sanctum/csrf-cookie', headers: { 'x-forwarded-proto': 'http' } }),
      ),
      false,
    );
    // A forged header without a trusted proxy does not make the cookies Secure (nor anything else).
    expectFlags(
      byName(await app.inject({ url: '/sanctum/csrf-cookie', headers: { 'x-forwarded-proto': 'https' } })),
      false,
    );
  });

  it('login sets both again with the same flags, under a new session id and a new token', async () => {
    const org = await buildOrganisation(proxied.database.handle.db);
    const client = new TestClient(proxied.app);
    const guest = await client.request({
      method: 'GET',
      url: '/sanctum/csrf-cookie',
      headers: { 'x-forwarded-proto': 'https' },
    });
    const guestCookies = byName(guest);
    const login = await client.request({
      method: 'POST',
      url: '/api/login',
      payload: { email: org.admin.email, password: org.admin.password },
      headers: { 'x-forwarded-proto': 'https' },
    });
    expect(login.statusCode, login.body).toBe(200);
    const cookies = byName(login);
    expectFlags(cookies, true);
    expect(cookies.get('kontrol_session')?.value).not.toBe(guestCookies.get('kontrol_session')?.value);
    expect(cookies.get('XSRF-TOKEN')?.value).not.toBe(guestCookies.get('XSRF-TOKEN')?.value);
  });
});
