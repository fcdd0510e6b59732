import { randomBytes } from 'node:crypto';
import { MODULE_SLUGS, type ModuleSlug } from '@kontrol/contracts';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { API_HEADERS } from '@kontrol/server-kit';
import { buildOrganisation, buildUser } from '../builders.js';
import { guest, isErrorShape, send, signIn, type Answer, type Session } from './http.js';
import {
  buildAppWithRoutes,
  fillPath,
  formatRouteTable,
  needsUser,
  pathParams,
  routeModules,
  STATE_CHANGING,
  type RouteInfo,
} from './route-table.js';
import { validExample } from './values.js';

/**
 * The access rules of docs/api.md, checked on every route of the built app (not a list written
 * here): 401 without a user, then 419 without the CSRF token on a state change, then 403 without
 * the route's module, or without the admin role where the route asks for it. A route added
 * tomorrow is checked by the same loops, and the count below proves none was skipped.
 */

const { built, routes } = await buildAppWithRoutes();
const app = built.app;
const db = built.database.handle.db;
afterAll(() => built.close());

/** What each route was checked for: every route of the table must have an entry. */
const checked = new Map<RouteInfo, string[]>();
const mark = (route: RouteInfo, check: string) => {
  checked.set(route, [...(checked.get(route) ?? []), check]);
};

const PLACEHOLDER_ID = 987_654_321;

/** The route's url with placeholder values valid for its params schema (ids that match no row). */
function placeholderUrl(route: RouteInfo): string {
  const names = pathParams(route.url);
  if (names.length === 0) return route.url;
  const hints = Object.fromEntries(names.map((name) => [name, [PLACEHOLDER_ID, 'a'.repeat(24)]]));
  hints.file = ['0123456789abcdef0123456789abcdef.png'];
  hints.type = ['combi_oven'];
  hints.provider = ['sandbox'];
  const example = route.params ? validExample(route.params, hints) : { value: undefined };
  const values = (example.value ?? {}) as Record<string, string | number>;
  for (const name of names) values[name] ??= PLACEHOLDER_ID;
  return fillPath(route.url, values);
}

interface Failure {
  route: string;
  check: string;
  status: number;
  body: string;
}
const failures: Failure[] = [];

function expectAnswer(route: RouteInfo, check: string, answer: Answer, ok: (status: number) => boolean) {
  mark(route, check);
  if (!ok(answer.status)) {
    failures.push({ route: route.key, check, status: answer.status, body: answer.body.slice(0, 300) });
  }
}

/** A refusal also has the error shape and the API's security headers. */
function expectRefusal(route: RouteInfo, check: string, answer: Answer, status: number) {
  expectAnswer(route, check, answer, (s) => s === status);
  if (answer.status === status && !isErrorShape(answer)) {
    failures.push({
      route: route.key,
      check: `${check}: error shape`,
      status,
      body: answer.body.slice(0, 300),
    });
  }
  for (const [name, value] of Object.entries(API_HEADERS)) {
    if (route.url.startsWith('/api/') && answer.headers[name] !== value) {
      failures.push({
        route: route.key,
        check: `${check}: header ${name}`,
        status,
        body: String(answer.headers[name]),
      });
    }
  }
}

let admin: Session;
let noModules: Session;
let noRole: Session;
const holdingOnly = new Map<string, Session>();
const holdingAllBut = new Map<string, Session>();

async function userHolding(modules: ModuleSlug[], role: 'regular' | 'admin' = 'regular') {
  const user = await buildUser(db, organisationId, { modules, role });
  return signIn(app, user.email, user.password);
}

let organisationId: number;

beforeAll(async () => {
  const org = await buildOrganisation(db);
  organisationId = org.organisationId;
  admin = await signIn(app, org.admin.email, org.admin.password);
  noModules = await userHolding([]);
  const bare = await buildUser(db, organisationId, {});
  noRole = await signIn(app, bare.email, bare.password);
  for (const route of routes) {
    const modules = routeModules(route) as ModuleSlug[];
    if (modules.length === 0) continue;
    const key = modules.join('|');
    if (!holdingOnly.has(key)) holdingOnly.set(key, await userHolding([modules[0] as ModuleSlug]));
    if (!holdingAllBut.has(key)) {
      holdingAllBut.set(key, await userHolding(MODULE_SLUGS.filter((slug) => !modules.includes(slug))));
    }
  }
});

describe('the route table', () => {
  it('is collected from the built app, every /api route declaring its access', () => {
    console.log(
      `Route table (${routes.length} routes, HEAD and /api/docs left out):\n${formatRouteTable(routes)}`,
    );
    expect(routes.length).toBeGreaterThan(100);
    for (const route of routes) {
      if (route.access === undefined) {
        // Only the process probes live outside /api without an access rule.
        expect(route.url.startsWith('/api/') || route.url.startsWith('/sanctum/'), route.key).toBe(false);
      }
      if (route.access === 'device') expect(route.csrf, route.key).toBe(false);
    }
    const keys = routes.map((route) => route.key);
    expect(new Set(keys).size).toBe(keys.length);
  });
});

describe('access checks on every route', () => {
  beforeEach(() => {
    failures.length = 0;
  });

  it('401 without a session, before anything else (and no user from a bogus cookie or token)', async () => {
    const visitor = await guest(app);
    for (const route of routes.filter(needsUser)) {
      const url = placeholderUrl(route);
      expectRefusal(route, '401 anonymous', await send(app, { method: route.method, url }), 401);
      // A guest session without the CSRF token: still 401, the user is checked first.
      expectRefusal(
        route,
        '401 guest without token',
        await send(app, { method: route.method, url, session: visitor, xsrf: false }),
        401,
      );
      const bogus = randomBytes(32).toString('base64url');
      expectRefusal(
        route,
        '401 bogus session',
        await send(app, {
          method: route.method,
          url,
          session: { cookie: `kontrol_session=${bogus}; XSRF-TOKEN=${bogus}`, xsrf: bogus },
        }),
        401,
      );
      expectRefusal(
        route,
        '401 bogus bearer',
        await send(app, { method: route.method, url, headers: { authorization: `Bearer 1|${bogus}` } }),
        401,
      );
    }
    expect(failures).toEqual([]);
  });

  it('419 on a state change without the CSRF token, before the module check (csrf:false excepted)', async () => {
    const visitor = await guest(app);
    for (const route of routes.filter((r) => STATE_CHANGING.has(r.method) && r.csrf)) {
      const url = placeholderUrl(route);
      // A user holding no module: 419 must come before the 403 the module check would give.
      const session = needsUser(route) ? noModules : visitor;
      expectRefusal(
        route,
        '419 no token',
        await send(app, { method: route.method, url, session, xsrf: false }),
        419,
      );
      expectRefusal(
        route,
        '419 wrong token',
        await send(app, {
          method: route.method,
          url,
          session,
          headers: { 'x-xsrf-token': 'wrong' },
          xsrf: false,
        }),
        419,
      );
      // The other session's token is no good either.
      expectRefusal(
        route,
        "419 another session's token",
        await send(app, {
          method: route.method,
          url,
          session,
          xsrf: false,
          headers: { 'x-xsrf-token': (session === visitor ? noModules : visitor).xsrf },
        }),
        419,
      );
    }
    expect(failures).toEqual([]);
  });

  it("403 for a user holding none of the route's modules, or every module but those", async () => {
    for (const route of routes.filter((r) => routeModules(r).length > 0)) {
      const url = placeholderUrl(route);
      const key = routeModules(route).join('|');
      expectRefusal(
        route,
        '403 no module',
        await send(app, { method: route.method, url, session: noModules }),
        403,
      );
      expectRefusal(
        route,
        '403 no access role',
        await send(app, { method: route.method, url, session: noRole }),
        403,
      );
      const others = holdingAllBut.get(key);
      if (others) {
        expectRefusal(
          route,
          '403 other modules',
          await send(app, { method: route.method, url, session: others }),
          403,
        );
      }
      if (!route.admin) {
        // The control: holding one of them is enough (what comes next is the handler's answer).
        expectAnswer(
          route,
          'module holder passes',
          await send(app, { method: route.method, url, session: holdingOnly.get(key) }),
          (status) => status !== 401 && status !== 403 && status !== 419 && status < 500,
        );
      }
    }
    expect(failures).toEqual([]);
  });

  it('403 on an admin route for a regular user holding its modules; admins pass', async () => {
    const regular = await userHolding([...MODULE_SLUGS]);
    for (const route of routes.filter((r) => r.admin)) {
      const url = placeholderUrl(route);
      expect(routeModules(route).length, route.key).toBeGreaterThan(0);
      expectRefusal(
        route,
        '403 not an admin',
        await send(app, { method: route.method, url, session: regular }),
        403,
      );
      expectAnswer(
        route,
        'admin passes',
        await send(app, { method: route.method, url, session: admin }),
        (status) => status !== 401 && status !== 403 && status !== 419 && status < 500,
      );
    }
    expect(failures).toEqual([]);
  });

  it('public and device routes: no session needed; a device route takes no user session', async () => {
    for (const route of routes.filter((r) => !needsUser(r))) {
      const url = placeholderUrl(route);
      if (route.access === 'device') {
        expectAnswer(
          route,
          'device: a user session is no credential',
          await send(app, { method: route.method, url, session: admin }),
          (status) => status === 401 || status === 404,
        );
      } else if (!STATE_CHANGING.has(route.method)) {
        expectAnswer(
          route,
          'public read without a session',
          await send(app, { method: route.method, url }),
          (status) => status !== 401 && status !== 403 && status !== 419 && status < 500,
        );
      } else if (!route.csrf) {
        expectAnswer(
          route,
          'public, csrf:false: no session, no token needed',
          await send(app, { method: route.method, url }),
          (status) => status !== 401 && status !== 403 && status !== 419 && status < 500,
        );
      }
    }
    expect(failures).toEqual([]);
  });

  it('checked every route of the table', () => {
    const unchecked = routes.filter((route) => !checked.has(route)).map((route) => route.key);
    expect(unchecked).toEqual([]);
    expect(checked.size).toBe(routes.length);
    const count = (check: string) => [...checked.values()].filter((list) => list.includes(check)).length;
    const summary = {
      routes: routes.length,
      '401': count('401 anonymous'),
      '419': count('419 no token'),
      '403 module': count('403 no module'),
      '403 admin': count('403 not an admin'),
      'public/device': routes.filter((r) => !needsUser(r)).length,
    };
    console.log(`Access checks: ${JSON.stringify(summary)}`);
    expect(summary['401']).toBe(routes.filter(needsUser).length);
    expect(summary['419']).toBe(routes.filter((r) => STATE_CHANGING.has(r.method) && r.csrf).length);
    expect(summary['403 module']).toBe(routes.filter((r) => routeModules(r).length > 0).length);
    expect(summary['403 admin']).toBe(routes.filter((r) => r.admin).length);
  });
});
