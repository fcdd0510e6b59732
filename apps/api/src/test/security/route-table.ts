import diagnostics from 'node:diagnostics_channel';
import type { FastifyInstance, RouteOptions } from 'fastify';
import type { Database } from '@kontrol/db';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll } from 'vitest';
import type { z } from 'zod';
import type { Access } from '../../plugins/auth.js';
import { buildTestApp, type TestApp } from '../test-app.js';

/** One route of the built app as its definition declares it (HEAD and the API docs left out). */
export interface RouteInfo {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS';
  /** As registered, regex constraints included: `/api/devices/:id(^\d+$)`. */
  url: string;
  /** `GET /api/devices/:id`: the url without its parameters' constraints. */
  key: string;
  access: Access | undefined;
  admin: boolean;
  /** false only where the route opts out (device ingest, the payment provider's callbacks). */
  csrf: boolean;
  params: z.ZodType | undefined;
  querystring: z.ZodType | undefined;
  body: z.ZodType | undefined;
  /** The route reads a multipart upload (`schema.consumes`). */
  multipart: boolean;
  /** The folder of the file that registered the route, from the repository's root (`apps/api/src/modules/rooms`). */
  folder: string;
}

export const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** The route needs a signed-in user (a slug, a list of slugs or `user`). */
export const needsUser = (route: RouteInfo) =>
  route.access !== undefined && route.access !== 'public' && route.access !== 'device';

/** The module slugs a route asks for (any one of them), or none for public/user/device routes. */
export function routeModules(route: RouteInfo): readonly string[] {
  const { access } = route;
  if (access === undefined || access === 'public' || access === 'user' || access === 'device') return [];
  return typeof access === 'string' ? [access] : access;
}

const PARAM = /:([A-Za-z_][A-Za-z0-9_]*)(\([^/]*?\))?/g;

/**
 * The folder of the file that registered the route being added: Fastify calls `onRoute` inside
 * `app.get(…)`, so the first frame of the stack in the repository's own code (not this file, not a
 * dependency) is the routes file.
 */
function registeringFolder(stack: string | undefined): string {
  for (const line of (stack ?? '').split('\n')) {
    const file = /((?:apps|packages)\/[^\s():]+)\.[cm]?[jt]s:\d+/.exec(line)?.[1];
    if (!file || file.includes('node_modules') || file.endsWith('security/route-table')) continue;
    return file.slice(0, file.lastIndexOf('/'));
  }
  return '?';
}

/** The names of a route's path parameters, in order. */
export function pathParams(url: string): string[] {
  return [...url.matchAll(PARAM)].map((match) => match[1] ?? '');
}

/** The route's url with its parameters replaced by `values` (URL-encoded). */
export function fillPath(url: string, values: Record<string, string | number>): string {
  return url.replace(PARAM, (_whole, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`fillPath: no value for :${name} of ${url}`);
    return encodeURIComponent(String(value));
  });
}

function collect(routes: RouteInfo[]) {
  return function onRoute(route: RouteOptions) {
    const methods = [route.method].flat();
    const url = route.url ?? '';
    if (url.startsWith('/api/docs')) return;
    for (const method of methods) {
      if (method === 'HEAD') continue;
      const schema = route.schema as Record<string, unknown> | undefined;
      routes.push({
        method: method as RouteInfo['method'],
        url,
        key: `${method} ${url.replace(PARAM, ':$1')}`,
        access: route.config?.access,
        admin: route.config?.admin === true,
        csrf: route.config?.csrf !== false,
        params: schema?.params as z.ZodType | undefined,
        querystring: schema?.querystring as z.ZodType | undefined,
        body: schema?.body as z.ZodType | undefined,
        multipart: Array.isArray(schema?.consumes) && schema.consumes.includes('multipart/form-data'),
        folder: registeringFolder(new Error().stack),
      });
    }
  };
}

/**
 * The real app of {@link buildTestApp} with its route table. Fastify announces every new instance
 * on the `fastify.initialization` diagnostics channel from its constructor, before `buildApp`
 * registers anything: an `onRoute` hook added there sees every route of every plugin, with no
 * change to production code. The sandbox payment provider is on (unless `env` says otherwise), so
 * its public pages are in the table and checked like every other route.
 */
export async function buildAppWithRoutes(
  env: Record<string, string> = {},
): Promise<{ built: TestApp; routes: RouteInfo[] }> {
  const routes: RouteInfo[] = [];
  const channel = diagnostics.channel('fastify.initialization');
  let seen = false;
  const subscriber = (message: unknown) => {
    if (seen) return; // the first instance is the app; nothing else is built meanwhile
    seen = true;
    (message as { fastify: FastifyInstance }).fastify.addHook('onRoute', collect(routes));
  };
  channel.subscribe(subscriber);
  try {
    const built = await buildTestApp({ PAYMENT_PROVIDER: 'sandbox', ...env });
    if (!seen) throw new Error('buildAppWithRoutes: Fastify did not announce the app');
    return { built, routes };
  } finally {
    channel.unsubscribe(subscriber);
  }
}

export interface RoutesContext {
  readonly app: FastifyInstance;
  readonly db: Kysely<Database>;
  readonly routes: readonly RouteInfo[];
  readonly built: TestApp;
}

/** {@link buildAppWithRoutes} for a test file: built in `beforeAll`, closed in `afterAll`. */
export function useAppWithRoutes(env: Record<string, string> = {}): RoutesContext {
  let running: { built: TestApp; routes: RouteInfo[] } | undefined;
  beforeAll(async () => {
    running = await buildAppWithRoutes(env);
  });
  afterAll(async () => {
    const stopping = running;
    running = undefined;
    await stopping?.built.close();
  });
  const current = () => {
    if (!running) throw new Error('useAppWithRoutes: read inside tests or hooks only');
    return running;
  };
  return {
    get app() {
      return current().built.app;
    },
    get db() {
      return current().built.database.handle.db;
    },
    get routes() {
      return current().routes;
    },
    get built() {
      return current().built;
    },
  };
}

/** The table as text, one route a line: method, path, access, admin, csrf, what it validates. */
export function formatRouteTable(routes: readonly RouteInfo[]): string {
  const rows = routes.map((route) => [
    route.method,
    route.key.slice(route.method.length + 1),
    route.access === undefined ? '-' : [route.access].flat().join('|'),
    route.admin ? 'admin' : '',
    route.csrf ? '' : 'no-csrf',
    [
      route.params && 'params',
      route.querystring && 'query',
      route.body && 'body',
      route.multipart && 'multipart',
    ]
      .filter(Boolean)
      .join(','),
  ]);
  const widths = rows[0]?.map((_, column) => Math.max(...rows.map((row) => row[column]?.length ?? 0))) ?? [];
  return rows
    .map((row) =>
      row
        .map((cell, i) => cell.padEnd(widths[i] ?? 0))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}
