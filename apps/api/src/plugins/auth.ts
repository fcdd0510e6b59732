import { pickLocale, type ModuleSlug } from '@kontrol/contracts';
import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sha256 } from '../lib/crypto.js';
import { forbidden, unauthenticated } from '@kontrol/server-kit';
import { nowIso } from '../lib/time.js';
import type { SessionRow } from '../modules/auth/sessions.repository.js';
import {
  consumeAccessToken,
  findLiveAccessToken,
  markAccessTokenUsed,
} from '../modules/auth/tokens.repository.js';
import { loadCurrentUser, type CurrentUser } from '../modules/users/users.repository.js';
import { readSession, readSessionWithUser, startSession, verifyCsrf } from './session.js';

/**
 * What a route needs, declared on every API route as `config: {access}`:
 * - `'public'`: anyone (CSRF still applies to state-changing methods);
 * - `'user'`: any signed-in user;
 * - a module slug: a signed-in user whose access role holds that module (docs/contract.md, "Roles and permissions"); a list of
 *   slugs: one holding any of them (lists several screens read, such as the devices);
 * - `'device'`: a device's gateway credential, which the route itself checks (telemetry ingest);
 *   no user or session is looked up and no CSRF applies.
 */
export type Access = 'public' | 'user' | 'device' | ModuleSlug | readonly ModuleSlug[];

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
    /**
     * Only the organisation's administrators (users with role `admin`), on top of `access`: 403
     * otherwise, before the body is validated. docs/people.md "What isAdmin changes".
     */
    admin?: boolean;
    /** Set false only for requests that cannot carry a browser session (device ingest). */
    csrf?: boolean;
  }
  interface FastifyRequest {
    session: SessionRow | undefined;
    user: CurrentUser | undefined;
    /** How the user was identified; bearer-token requests are not exposed to CSRF. */
    authVia: 'session' | 'token' | undefined;
    accessTokenId: number | undefined;
  }
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const TOKEN_TOUCH_INTERVAL_MS = 60_000;

/** The signed-in user of a route declared `'user'` or with a module (the hook guarantees one). */
export function currentUser(request: FastifyRequest): CurrentUser {
  if (!request.user) throw unauthenticated();
  return request.user;
}

/**
 * The signed-in user when they administer their organisation (role `admin`), else 403. Routes
 * declare it with `config: {access, admin: true}`; a handler whose rule depends on the target
 * (a user's own settings) calls it itself. Admins manage users, roles, integrations and billing;
 * the modules of a user's access role only decide which screens they see (docs/people.md).
 */
export function requireAdmin(request: FastifyRequest): CurrentUser {
  const user = currentUser(request);
  if (!user.isAdmin) throw forbidden();
  return user;
}

function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header?.startsWith('Bearer ')) return undefined;
  const token = header.slice('Bearer '.length).trim();
  return token.length > 0 && token.length <= 256 ? token : undefined;
}

/**
 * A personal access token `<id>|<secret>` (Sanctum's format). A single-use token (a support login
 * link) is consumed here and turned into a browser session, so the console goes on with cookies.
 */
async function identifyByToken(request: FastifyRequest, reply: FastifyReply, token: string) {
  const secret = token.includes('|') ? token.slice(token.indexOf('|') + 1) : token;
  const db = request.server.db;
  const now = nowIso();
  const row = await findLiveAccessToken(db, sha256(secret), now);
  if (!row) return;
  const user = await loadCurrentUser(db, row.user_id);
  if (!user) return;
  if (row.single_use === 1) {
    if (!(await consumeAccessToken(db, row.id))) return;
    request.session = await readSession(request);
    await startSession(request, reply, user.id);
    request.authVia = 'session';
  } else {
    if (!row.last_used_at || Date.now() - Date.parse(row.last_used_at) > TOKEN_TOUCH_INTERVAL_MS) {
      await markAccessTokenUsed(db, row.id, now);
    }
    request.authVia = 'token';
    request.accessTokenId = row.id;
  }
  request.user = user;
}

async function identifyBySession(request: FastifyRequest) {
  const found = await readSessionWithUser(request);
  if (!found) return;
  request.session = found.session;
  if (!found.user) return;
  request.user = found.user;
  request.authVia = 'session';
}

/**
 * The user of the request's live session cookie, for handlers outside the access hook (the
 * console's pages have no `config.access`); undefined without one. Bearer tokens are not looked at.
 */
export async function sessionUser(request: FastifyRequest): Promise<CurrentUser | undefined> {
  if (!request.user) await identifyBySession(request);
  return request.authVia === 'session' ? request.user : undefined;
}

/**
 * One hook in front of every API route: who is calling (bearer token or session cookie), then
 * 401 (no user where one is needed), 419 (state change without the session's CSRF token) and
 * 403 (module missing, or not an admin where `config.admin` asks for one), in that order. Routes
 * without `config.access` (static files) are skipped; an `/api` route without it refuses to start.
 */
export const authPlugin = fp(
  async (app: FastifyInstance) => {
    app.decorateRequest('locale', 'ru');
    app.decorateRequest('session', undefined);
    app.decorateRequest('user', undefined);
    app.decorateRequest('authVia', undefined);
    app.decorateRequest('accessTokenId', undefined);

    app.addHook('onRoute', (route) => {
      const path = route.url ?? '';
      if (path.startsWith('/api/docs')) return;
      if ((path.startsWith('/api/') || path.startsWith('/sanctum/')) && !route.config?.access) {
        throw new Error(`Route ${String(route.method)} ${path} does not declare config.access`);
      }
    });

    app.addHook('onRequest', async (request, reply) => {
      request.locale = pickLocale(request.headers['accept-language']);
      const config = request.routeOptions.config; // a getter that builds an object: read once
      const access = config.access;
      if (!access || access === 'device') return;

      const token = bearerToken(request);
      if (token) await identifyByToken(request, reply, token);
      else await identifyBySession(request);

      if (access !== 'public' && !request.user) throw unauthenticated();
      const csrf = config.csrf !== false;
      if (csrf && !SAFE_METHODS.has(request.method) && request.authVia !== 'token') verifyCsrf(request);
      if (access !== 'public' && access !== 'user') {
        const held = request.user?.moduleSlugs;
        if (typeof access === 'string' ? !held?.has(access) : !access.some((slug) => held?.has(slug))) {
          throw forbidden();
        }
      }
      if (config.admin === true) requireAdmin(request);
    });
  },
  { name: 'auth', dependencies: ['db'] },
);
