import { gunzipSync, brotliDecompressSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { buildDevice, buildOrganisation } from './test/builders.js';
import { TestClient } from './test/http-client.js';
import { buildTestApp, useTestApp } from './test/test-app.js';

const t = useTestApp();

describe('platform', () => {
  it('/healthz answers while the process is up; /readyz only while the database answers', async () => {
    expect((await t.app.inject('/healthz')).json()).toEqual({ status: 'ok' });
    expect((await t.app.inject('/readyz')).statusCode).toBe(200);
    const other = await buildTestApp();
    expect((await other.app.inject('/readyz')).statusCode).toBe(200);
    await other.database.handle.close();
    const res = await other.app.inject('/readyz');
    expect(res.statusCode).toBe(503);
    await other.app.close();
    await other.database.drop().catch(() => undefined);
  });

  it('sets security headers on every response, errors included', async () => {
    for (const url of ['/healthz', '/api/users/auth', '/api/nowhere', '/auth/login']) {
      const res = await t.app.inject(url);
      expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['referrer-policy']).toBe('no-referrer');
      expect(res.headers['strict-transport-security']).toBeUndefined();
    }
  });

  it("gives API answers the API's headers and pages helmet's", async () => {
    for (const url of ['/api/users/auth', '/api/nowhere']) {
      const res = await t.app.inject(url);
      expect(res.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
      expect(res.headers['cross-origin-resource-policy']).toBe('same-origin');
      expect(res.headers['cross-origin-opener-policy']).toBeUndefined();
    }
    for (const url of ['/healthz', '/auth/login']) {
      const res = await t.app.inject(url);
      expect(res.headers['content-security-policy']).toContain("default-src 'self'");
      expect(res.headers['content-security-policy']).toContain("object-src 'none'");
      expect(res.headers['cross-origin-opener-policy']).toBe('same-origin');
    }
    // The API's documentation is a page (its CSP is Swagger UI's own).
    expect((await t.app.inject('/api/docs/')).headers['cross-origin-opener-policy']).toBe('same-origin');
  });

  it('sends HSTS and Secure cookies only over HTTPS (behind a trusted proxy)', async () => {
    const proxied = await buildTestApp({ TRUST_PROXY: 'true' });
    try {
      const res = await proxied.app.inject({
        url: '/sanctum/csrf-cookie',
        headers: { 'x-forwarded-proto': 'https' },
      });
      expect(res.headers['strict-transport-security']).toContain('max-age=');
      const cookies = res.cookies as { name: string; secure?: boolean }[];
      expect(cookies.every((c) => c.secure === true)).toBe(true);
    } finally {
      await proxied.close();
    }
  });

  it('compresses responses with brotli or gzip', async () => {
    const org = await buildOrganisation(t.db);
    const client = new TestClient(t.app);
    await client.login(org.admin.email, org.admin.password);
    const br = await client.request({
      method: 'POST',
      url: '/api/acl/roles',
      payload: { withAdminRole: true },
      headers: { 'accept-encoding': 'br' },
    });
    expect(br.headers['content-encoding']).toBe('br');
    expect(
      (JSON.parse(brotliDecompressSync(br.rawPayload).toString()) as { meta: { total: number } }).meta.total,
    ).toBe(1);
    const gz = await client.request({
      method: 'POST',
      url: '/api/acl/roles',
      payload: { withAdminRole: true },
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect((JSON.parse(gunzipSync(gz.rawPayload).toString()) as { meta: { total: number } }).meta.total).toBe(
      1,
    );
  });

  it('compresses a page of a list in one piece, not through a stream', async () => {
    const org = await buildOrganisation(t.db);
    const device = await buildDevice(t.db, org.organisationId);
    const client = new TestClient(t.app);
    await client.login(org.admin.email, org.admin.password);
    for (let i = 0; i < 25; i += 1) {
      const created = await client.post('/api/devices/events/add', {
        device_id: device.id,
        severity: 'warning',
        title: `Перегрев камеры ${i}`,
        description: 'Температура камеры выше нормы дольше десяти минут. '.repeat(6),
      });
      expect(created.statusCode).toBe(201);
    }
    const page = await client.get('/api/devices/events?page=1', { 'accept-encoding': 'br' });
    expect(page.headers['content-encoding']).toBe('br');
    const json = brotliDecompressSync(page.rawPayload);
    // Larger than the plugin's own threshold for one call on any machine (4–8 KB on 2+ cores).
    expect(json.length).toBeGreaterThan(8192);
    expect((JSON.parse(json.toString()) as { data: unknown[] }).data).toHaveLength(25);
    // A streamed answer has no length; one compressed in one call has its exact length.
    expect(page.headers['content-length']).toBe(String(page.rawPayload.length));
  });

  it('answers unknown API paths with a JSON 404 in the requested language', async () => {
    const en = await t.app.inject({ url: '/api/nowhere', headers: { 'accept-language': 'en' } });
    expect(en.statusCode).toBe(404);
    expect(en.json()).toEqual({ message: 'Not found.' });
    const ru = await t.app.inject({ url: '/api/nowhere' });
    expect(ru.json()).toEqual({ message: 'Не найдено.' });
  });

  it('serves OpenAPI generated from the route schemas at /api/docs', async () => {
    const spec = (await t.app.inject('/api/docs/json')).json<{
      openapi: string;
      paths: Record<string, Record<string, unknown>>;
    }>();
    expect(spec.openapi).toMatch(/^3\./);
    for (const path of [
      '/api/login',
      '/api/logout',
      '/api/register',
      '/api/users/auth',
      '/api/acl/roles',
      '/sanctum/csrf-cookie',
    ]) {
      expect(spec.paths).toHaveProperty(path);
    }
    expect(JSON.stringify(spec.paths['/api/login'])).toContain('password');
    expect((await t.app.inject('/api/docs')).statusCode).toBeLessThan(400);
  });

  it('closes gracefully: a request in flight finishes, new connections are refused', async () => {
    const { buildAllInOneApp } = await import('./all-in-one/app.js');
    const { createTestDatabase } = await import('@kontrol/db/testing');
    const database = await createTestDatabase();
    const { app } = await buildAllInOneApp({
      config: { ...t.config, databaseUrl: database.url },
      database: database.handle,
      logger: false,
    });
    let release: () => void = () => undefined;
    const started = new Promise<void>((resolveStarted) => {
      app.get('/api/slow', { config: { access: 'public' } }, async () => {
        resolveStarted();
        await new Promise<void>((resolve) => (release = resolve));
        return { done: true };
      });
    });
    await app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = app.server.address() as { port: number };
    const inFlight = fetch(`http://127.0.0.1:${port}/api/slow`);
    await started;
    const closing = app.close();
    // Fastify stops listening once its preClose hooks have run; until then it answers 503.
    await expect.poll(() => app.server.listening, { timeout: 5_000 }).toBe(false);
    await expect(
      fetch(`http://127.0.0.1:${port}/healthz`, { signal: AbortSignal.timeout(3000) }),
    ).rejects.toThrow('fetch failed');
    release();
    const response = await inFlight;
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ done: true });
    // The client's keep-alive socket does not hold the shutdown open.
    await closing;
    await database.drop();
  });

  it('refuses to start with an /api route that does not declare its access', async () => {
    const { default: Fastify } = await import('fastify');
    const { authPlugin } = await import('./plugins/auth.js');
    const { dbPlugin } = await import('@kontrol/server-kit');
    const app = Fastify();
    await app.register(dbPlugin, { database: t.database.handle });
    await app.register(authPlugin);
    expect(() => app.get('/api/forgotten', async () => 'open')).toThrow('does not declare config.access');
    await app.close();
  });
});
