import type { FastifyReply, FastifyRequest } from 'fastify';
import { randomSecret, safeEqual, sha256 } from '../lib/crypto.js';
import { csrfMismatch } from '@kontrol/server-kit';
import { minutesFromNow, nowIso } from '../lib/time.js';
import {
  deleteSession,
  findLiveSessionWithUser,
  insertSession,
  touchSession,
  type SessionRow,
} from '../modules/auth/sessions.repository.js';
import type { CurrentUser } from '../modules/users/users.repository.js';

/**
 * Laravel-Sanctum-compatible SPA sessions: an HttpOnly session cookie, and a readable
 * `XSRF-TOKEN` cookie that the console echoes in `X-XSRF-TOKEN` on every state-changing request.
 * Sessions live in the database, so any API instance can serve any request.
 */
export const SESSION_COOKIE = 'kontrol_session';
export const XSRF_COOKIE = 'XSRF-TOKEN';
const REMEMBER_MINUTES = 60 * 24 * 30;
/** Activity is written back at most this often, not on every request. */
const TOUCH_INTERVAL_MS = 60_000;

function cookieOptions(request: FastifyRequest, httpOnly: boolean, maxAgeSeconds?: number) {
  return {
    path: '/',
    httpOnly,
    sameSite: 'lax' as const,
    secure: request.protocol === 'https',
    ...(maxAgeSeconds ? { maxAge: maxAgeSeconds } : {}),
  };
}

function lifetimeMinutes(request: FastifyRequest, remember: boolean) {
  return remember ? REMEMBER_MINUTES : request.server.config.sessionLifetimeMinutes;
}

/** The live session named by the request's cookie, kept alive by its activity. */
export async function readSession(request: FastifyRequest): Promise<SessionRow | undefined> {
  return (await readSessionWithUser(request))?.session;
}

/**
 * The live session named by the request's cookie with its active user (one query), kept alive by
 * its activity.
 */
export async function readSessionWithUser(
  request: FastifyRequest,
): Promise<{ session: SessionRow; user: CurrentUser | undefined } | undefined> {
  const cookie = request.cookies[SESSION_COOKIE];
  if (!cookie || cookie.length > 128) return undefined;
  const db = request.server.db;
  const found = await findLiveSessionWithUser(db, sha256(cookie), nowIso());
  if (!found) return undefined;
  const { session } = found;
  if (Date.now() - Date.parse(session.last_activity_at) > TOUCH_INTERVAL_MS) {
    const expires = minutesFromNow(lifetimeMinutes(request, session.remember === 1));
    await touchSession(db, session.id, nowIso(), expires);
    session.expires_at = expires;
  }
  return found;
}

/**
 * Starts a new session (a new id every time: at login this defeats session fixation) and sets
 * both cookies. Any session the request carried is destroyed.
 */
export async function startSession(
  request: FastifyRequest,
  reply: FastifyReply,
  userId: number | null,
  remember = false,
): Promise<SessionRow> {
  if (request.session) await deleteSession(request.server.db, request.session.id);
  const secret = randomSecret();
  const now = nowIso();
  const minutes = lifetimeMinutes(request, remember);
  const session: SessionRow = {
    id: sha256(secret),
    user_id: userId,
    csrf_token: randomSecret(),
    remember: remember ? 1 : 0,
    ip: request.ip.slice(0, 64),
    user_agent: (request.headers['user-agent'] ?? '').slice(0, 512) || null,
    created_at: now,
    last_activity_at: now,
    expires_at: minutesFromNow(minutes),
  };
  await insertSession(request.server.db, session);
  const maxAge = remember ? minutes * 60 : undefined;
  reply.setCookie(SESSION_COOKIE, secret, cookieOptions(request, true, maxAge));
  reply.setCookie(XSRF_COOKIE, session.csrf_token, cookieOptions(request, false, maxAge));
  request.session = session;
  return session;
}

/** Destroys the request's session server-side and clears both cookies. */
export async function endSession(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  if (request.session) await deleteSession(request.server.db, request.session.id);
  request.session = undefined;
  reply.clearCookie(SESSION_COOKIE, cookieOptions(request, true));
  reply.clearCookie(XSRF_COOKIE, cookieOptions(request, false));
}

/** Re-sends the XSRF cookie of the current session (GET /sanctum/csrf-cookie). */
export function sendXsrfCookie(request: FastifyRequest, reply: FastifyReply, session: SessionRow) {
  const maxAge = session.remember === 1 ? REMEMBER_MINUTES * 60 : undefined;
  reply.setCookie(XSRF_COOKIE, session.csrf_token, cookieOptions(request, false, maxAge));
}

/** 419 unless the request echoes its session's CSRF token (`X-XSRF-TOKEN` or `X-CSRF-TOKEN`). */
export function verifyCsrf(request: FastifyRequest): void {
  const header = request.headers['x-xsrf-token'] ?? request.headers['x-csrf-token'];
  const token = Array.isArray(header) ? header[0] : header;
  if (!request.session || !token || !safeEqual(decodeCookieValue(token), request.session.csrf_token)) {
    throw csrfMismatch();
  }
}

function decodeCookieValue(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
