import { DEFAULT_WORK_TIME, INGEST_HTTP_PATH, translate } from '@kontrol/contracts';
import qs from 'qs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseFormBody, readForm } from '../../lib/forms.js';
import { buildSmartDevice } from '../builders.js';
import { TestClient } from '../http-client.js';
import { buildOrg, hashOrg, hintsFor, pathValues, type Org } from './fixtures.js';
import { guest, isErrorShape, send, type Session } from './http.js';
import { buildAppWithRoutes, fillPath, needsUser, STATE_CHANGING } from './route-table.js';
import { validExample } from './values.js';

/**
 * `application/x-www-form-urlencoded` bodies (docs/api.md, "Requests"): read wherever JSON is, as
 * a Laravel backend reads them, and no door for the attacks a form makes easy. An HTML form on any
 * site can post one without a CORS preflight, so every state change without the CSRF header is
 * 419; the body limit, the field count and prototype keys hold as they do for JSON.
 */

const FORM = 'application/x-www-form-urlencoded';
const { built, routes } = await buildAppWithRoutes();
const app = built.app;
const db = built.database.handle.db;
afterAll(() => built.close());

let A: Org;

beforeAll(async () => {
  A = await buildOrg(app, db, 'ORG-FORMS');
});

/** `value` as a browser's form sends it: bracket keys, and an empty field for null or an empty list. */
function asForm(value: unknown): string {
  const blanked = JSON.parse(JSON.stringify(value ?? {}), (_key, item: unknown) =>
    item === null || (Array.isArray(item) && item.length === 0) ? '' : item,
  ) as unknown;
  return qs.stringify(blanked, { arrayFormat: 'indices' });
}

const form = (session: Session, method: string, url: string, raw: string, extra: object = {}) =>
  send(app, { method, url, session, raw, contentType: FORM, ...extra });

describe('form bodies are read wherever JSON bodies are', () => {
  it('every body schema reads the form of its valid example as it reads the JSON', async () => {
    const hints = await hintsFor(app, db, A);
    const bodies = routes.filter((route) => route.body && route.access !== 'device' && !route.multipart);
    const differences: string[] = [];
    let compared = 0;
    for (const route of bodies) {
      const schema = route.body;
      if (!schema) continue;
      const example = validExample(schema, hints);
      if (example.issues !== undefined) continue;
      const fromJson = schema.safeParse(example.value);
      const text = asForm(example.value);
      const fromForm = parseFormBody(schema, readForm(text));
      compared += 1;
      // An empty text is null in a form (Laravel's rule): the two are alike here.
      const same = (value: unknown) =>
        JSON.stringify(value, (_key, item: unknown) => (item === '' ? null : item));
      if (!fromForm.success || same(fromForm.data) !== same(fromJson.data)) {
        differences.push(
          `${route.key}: ${text} → ${JSON.stringify(fromForm.success ? fromForm.data : fromForm.error.issues)}`,
        );
      }
    }
    console.log(`Form bodies: ${compared} of ${bodies.length} body schemas compared`);
    expect(compared).toBe(bodies.length);
    expect(differences).toEqual([]);
  });

  it('signs in with a form (remember=1), creates an address and a room, signs out with an empty form', async () => {
    const browser = await TestClient.visitor(app);
    const login = await browser.post(
      '/api/login',
      `email=${encodeURIComponent(A.adminEmail)}&password=${encodeURIComponent(A.adminPassword)}&remember=1`,
      { 'content-type': FORM },
    );
    expect(login.statusCode, login.body).toBe(200);
    const session = login.cookies.find((cookie) => cookie.name === 'kontrol_session');
    expect(session?.maxAge).toBe(30 * 24 * 60 * 60);

    const address = await browser.post(
      '/api/addresses/',
      asForm({
        name: 'Form cafe',
        full_address: 'Moscow, Tverskaya 1',
        city: 'Moscow',
        time_zone: 'Europe/Moscow',
        work_time: { ...DEFAULT_WORK_TIME, sun: null },
        latitude: '55.75',
        longitude: '37.62',
      }),
      { 'content-type': FORM },
    );
    expect(address.statusCode, address.body).toBe(201);
    const created = address.json<{ data: { id: number; work_time: object; latitude: number } }>().data;
    expect(created.work_time).toEqual({ ...DEFAULT_WORK_TIME, sun: null });
    expect(created.latitude).toBe(55.75);

    const room = await browser.post(
      '/api/rooms/',
      `name=Kitchen&address_id=${created.id}&floor=&description=`,
      { 'content-type': `${FORM}; charset=UTF-8` },
    );
    expect(room.statusCode, room.body).toBe(201);
    expect(room.json<{ data: object }>().data).toMatchObject({
      name: 'Kitchen',
      address_id: created.id,
      floor: null,
    });

    const wrong = await browser.post('/api/rooms/', 'name=Kitchen&address_id=abc', { 'content-type': FORM });
    expect(wrong.statusCode).toBe(422);
    expect(Object.keys(wrong.json<{ errors: object }>().errors)).toEqual(['address_id']);
    const missing = await browser.post('/api/rooms/', 'name=&address_id=', { 'content-type': FORM });
    expect(missing.statusCode).toBe(422);
    expect(Object.keys(missing.json<{ errors: object }>().errors).sort()).toEqual(['address_id', 'name']);

    const logout = await browser.request({
      method: 'POST',
      url: '/api/logout',
      headers: { 'content-type': FORM, 'content-length': '0' },
    });
    expect(logout.statusCode, logout.body).toBe(204);
    expect((await browser.get('/api/users/auth')).statusCode).toBe(401);
  });
});

describe('a form is no door for attacks', () => {
  it('a cross-site form (no CSRF header) is 419 on every state-changing route, before its body is read', async () => {
    const visitor = await guest(app);
    const targets = [];
    for (const route of routes.filter((r) => STATE_CHANGING.has(r.method) && r.csrf)) {
      targets.push({ route, url: fillPath(route.url, await pathValues(app, db, A, route)) });
    }
    // Taken once every row the paths name exists: nothing may change after this.
    const before = await hashOrg(db, A.id);
    const failures: string[] = [];
    let checked = 0;
    for (const { route, url } of targets) {
      const session = needsUser(route) ? A.admin : visitor;
      // A 10 MiB body too: refused as 419 before it is read, not 413.
      for (const raw of [
        'name=x&email=evil%40example.test&password=evil-pass-1',
        `a=${'x'.repeat(10 << 20)}`,
      ]) {
        const answer = await form(session, route.method, url, raw, { xsrf: false });
        checked += 1;
        if (answer.status !== 419 || !isErrorShape(answer))
          failures.push(`${route.key}: ${answer.status} ${answer.body.slice(0, 200)}`);
      }
    }
    console.log(`Cross-site forms: ${checked} requests`);
    expect(failures).toEqual([]);
    expect(await hashOrg(db, A.id)).toBe(before);
    // Login CSRF (signing the victim into the attacker's account) included: no session is started.
    const login = await send(app, {
      method: 'POST',
      url: '/api/login',
      raw: `email=${encodeURIComponent(A.adminEmail)}&password=${encodeURIComponent(A.adminPassword)}`,
      contentType: FORM,
    });
    expect(login.status).toBe(419);
    expect(String(login.headers['set-cookie'] ?? '')).not.toContain('kontrol_session=');
  });

  it('a form over the body limit is 413 on every state-changing route, device routes included', async () => {
    const failures: string[] = [];
    const huge = `name=${'a'.repeat(10 << 20)}`;
    for (const route of routes.filter((r) => STATE_CHANGING.has(r.method))) {
      const url = fillPath(route.url, await pathValues(app, db, A, route));
      const answer = await form(A.admin, route.method, url, huge);
      if (answer.status !== 413 || !isErrorShape(answer))
        failures.push(`${route.key}: ${answer.status} ${answer.body.slice(0, 200)}`);
    }
    expect(failures).toEqual([]);
  });

  it('too many fields, a huge list index, deep brackets, repeated keys, another charset: refused, never a 5xx', async () => {
    const put = (raw: string, contentType = FORM) =>
      send(app, { method: 'PUT', url: '/api/user/profile-information', session: A.admin, raw, contentType });
    const tooMany = await put(Array.from({ length: 1001 }, (_, i) => `k${i}=1`).join('&'));
    expect(tooMany.status).toBe(413);
    expect(JSON.parse(tooMany.body)).toEqual({ message: translate('en', 'http.payload_too_large') });
    expect((await put('name[99999999]=x')).status).toBe(413);
    for (const raw of [
      `${'a['.repeat(60)}x${']'.repeat(60)}=1`,
      'name=First&name=Second',
      'name[]=x',
      'name[a]=x',
      '%ff%fe=%c3%28&name=%E0%A4%A',
      '&&==&=&a',
    ]) {
      const answer = await put(raw);
      expect(answer.status, raw).toBeGreaterThanOrEqual(400);
      expect(answer.status, raw).toBeLessThan(500);
      expect(isErrorShape(answer), raw).toBe(true);
    }
    expect((await put('name=x', `${FORM}; charset=windows-1251`)).status).toBe(415);
  });

  it('prototype keys neither pollute objects nor reach a schema', async () => {
    const before = await hashOrg(db, A.id);
    for (const raw of [
      '__proto__[isAdmin]=1&__proto__[role]=admin',
      'constructor[prototype][isAdmin]=1',
      'a[__proto__][isAdmin]=1',
      'toString=x&hasOwnProperty=y&valueOf=1',
    ]) {
      const answer = await send(app, {
        method: 'POST',
        url: '/api/rooms/',
        session: A.admin,
        raw,
        contentType: FORM,
      });
      expect(answer.status, raw).toBe(422);
      expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
      expect(Object.prototype).not.toHaveProperty('role');
    }
    expect(await hashOrg(db, A.id)).toBe(before);
  });

  it('device routes read JSON only (the device protocol): a form is 415 and stores nothing', async () => {
    const device = await buildSmartDevice(db, A.id);
    const answer = await send(app, {
      method: 'POST',
      url: INGEST_HTTP_PATH,
      raw: 'temperature=20&ts=2026-01-01T00:00:00Z',
      contentType: FORM,
      headers: { authorization: `Bearer ${device.credential}` },
    });
    expect(answer.status).toBe(415);
    expect(JSON.parse(answer.body)).toEqual({ message: translate('en', 'http.unsupported_media') });
  });
});
