import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MODULE_SLUGS } from '@kontrol/contracts';
import fc from 'fast-check';
import qs from 'qs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildUser } from '../builders.js';
import { startFakeTelegram } from '../fake-telegram.js';
import { nextTestIp } from '../http-client.js';
import {
  buildOrg,
  buildVictim,
  hashOrg,
  hintsFor,
  multipartImage,
  pathValues,
  type Org,
} from './fixtures.js';
import { guest, isErrorShape, leaksInternals, send, signIn, type Answer, type Session } from './http.js';
import { buildAppWithRoutes, fillPath, needsUser, STATE_CHANGING, type RouteInfo } from './route-table.js';
import {
  bodyArbitrary,
  edgeValues,
  jsonSchemaOf,
  queryArbitrary,
  validExample,
  type FuzzBody,
  type FuzzContext,
} from './values.js';

/**
 * Property-based fuzzing of every route that validates a body or a query (its zod schema, through
 * JSON Schema), with hostile values mixed into valid-shaped ones at every level, as organisation
 * A's admin with the CSRF token: never a 5xx, never a stack trace or a source path in an answer,
 * and organisation B's rows unchanged. Deterministic: the seed is fixed (SECURITY_FUZZ_SEED to
 * replay another), and the number of runs per route is bounded (SECURITY_FUZZ_RUNS).
 */

const SEED = Number(process.env.SECURITY_FUZZ_SEED ?? 20_260_522);
const NUM_RUNS = Number(process.env.SECURITY_FUZZ_RUNS ?? 25);

const uploadsDir = mkdtempSync(join(tmpdir(), 'kontrol-security-fuzz-'));
const telegram = await startFakeTelegram();
const { built, routes } = await buildAppWithRoutes({
  UPLOADS_DIR: uploadsDir,
  TELEGRAM_BOT_TOKEN: telegram.token,
  TELEGRAM_API_ROOT: telegram.apiRoot,
});
const app = built.app;
const db = built.database.handle.db;
afterAll(async () => {
  await built.close();
  await telegram.close();
  rmSync(uploadsDir, { recursive: true, force: true });
});

const fuzzable = routes.filter((route) => route.access !== 'device' && (route.body || route.querystring));

let A: Org;
let B: Org;
let context: FuzzContext;
/** An admin of A of its own, replaced when a route ends its session (a password or e-mail change). */
let fuzzer: Session;

async function newFuzzer() {
  const user = await buildUser(db, A.id, { modules: [...MODULE_SLUGS], role: 'admin' });
  fuzzer = await signIn(app, user.email, user.password);
}

beforeAll(async () => {
  A = await buildOrg(app, db, 'ORG-A');
  const victim = await buildVictim(app, db);
  B = victim.org;
  const hints = await hintsFor(app, db, A);
  const ids = [
    ...Object.values(victim.ids),
    victim.entry.id,
    ...Object.values(hints).flatMap((candidates) => candidates.flat(2)),
  ].filter((value): value is number => typeof value === 'number' && Number.isSafeInteger(value));
  context = { hints, knownIds: [...new Set([1, 2, ...ids])] };
  await newFuzzer();
  console.log(`Fuzzing ${fuzzable.length} routes, ${NUM_RUNS} runs each, seed ${SEED}`);
}, 60_000);

let requests = 0;
const statuses: Record<string, number> = {};
afterAll(() => console.log(`Fuzz: ${requests} requests, statuses ${JSON.stringify(statuses)}, seed ${SEED}`));

function describeBody(body: FuzzBody | undefined): string {
  if (!body) return '';
  const text = 'json' in body ? String(JSON.stringify(body.json)) : `${body.contentType} ${String(body.raw)}`;
  return text.length > 300 ? `${text.slice(0, 300)}… (${text.length} chars)` : text;
}

/** The properties every answer must have. */
function checkAnswer(route: RouteInfo, answer: Answer, sent: string) {
  requests += 1;
  const family = `${Math.floor(answer.status / 100)}xx`;
  statuses[family] = (statuses[family] ?? 0) + 1;
  if (answer.status >= 500) {
    throw new Error(`${route.key} answered ${answer.status} ${answer.body.slice(0, 300)} to ${sent}`);
  }
  const leak = leaksInternals(answer.body);
  if (leak)
    throw new Error(`${route.key} leaked ${String(leak)}: ${answer.body.slice(0, 500)} (sent ${sent})`);
  if (answer.status >= 400 && !isErrorShape(answer)) {
    throw new Error(
      `${route.key} answered ${answer.status} without the error shape: ${answer.body.slice(0, 300)}`,
    );
  }
}

describe(`fuzzing every body and query (seed ${SEED})`, () => {
  for (const route of fuzzable) {
    it(route.key, async () => {
      const before = await hashOrg(db, B.id);
      const path = fillPath(route.url, await pathValues(app, db, A, route));
      const body = route.body ? bodyArbitrary(route.body, context) : fc.constant(undefined);
      const query = route.querystring ? queryArbitrary(route.querystring, context) : fc.constant('');
      await fc.assert(
        fc.asyncProperty(body, query, async (fuzzBody, fuzzQuery) => {
          // Public routes as a visitor of their own (they are limited per address); the rest as A's admin.
          const ip = needsUser(route) ? undefined : nextTestIp();
          const session = needsUser(route) ? fuzzer : await guest(app, ip);
          const url = fuzzQuery ? `${path}?${fuzzQuery}` : path;
          const answer = await send(app, {
            method: route.method,
            url,
            session,
            ...(ip ? { remoteAddress: ip } : {}),
            ...(fuzzBody === undefined ? {} : 'json' in fuzzBody ? { json: fuzzBody.json } : fuzzBody),
          });
          checkAnswer(route, answer, `${url.slice(0, 300)} ${describeBody(fuzzBody)}`);
        }),
        { seed: SEED, numRuns: NUM_RUNS, endOnFailure: true },
      );
      expect(await hashOrg(db, B.id), "organisation B's rows changed").toBe(before);
      // A route may have ended the fuzzer's session (a new password, say): go on with another.
      if ((await send(app, { method: 'GET', url: '/api/users/auth', session: fuzzer })).status !== 200) {
        await newFuzzer();
      }
    });
  }

  it('the edges of every field of every body and query: never a 5xx, never a leak', async () => {
    const before = await hashOrg(db, B.id);
    let sent = 0;
    const failures: string[] = [];
    for (const route of fuzzable) {
      const path = fillPath(route.url, await pathValues(app, db, A, route));
      for (const part of ['body', 'querystring'] as const) {
        const schema = route[part];
        if (!schema) continue;
        const base = (validExample(schema, context.hints).value ?? {}) as Record<string, unknown>;
        for (const [name, node] of Object.entries(jsonSchemaOf(schema).properties ?? {})) {
          for (const edge of edgeValues(node, context.hints)) {
            const value = { ...base, [name]: edge };
            const ip = needsUser(route) ? undefined : nextTestIp();
            const session = needsUser(route) ? fuzzer : await guest(app, ip);
            const url = part === 'querystring' ? `${path}?${qs.stringify(value)}` : path;
            const answer = await send(app, {
              method: route.method,
              url,
              session,
              ...(ip ? { remoteAddress: ip } : {}),
              ...(part === 'body'
                ? { json: value }
                : route.body
                  ? { json: validExample(route.body, context.hints).value }
                  : {}),
            });
            sent += 1;
            try {
              checkAnswer(route, answer, `${part}.${name} = ${String(JSON.stringify(edge)).slice(0, 200)}`);
            } catch (error) {
              failures.push((error as Error).message.slice(0, 400));
            }
          }
        }
      }
      if ((await send(app, { method: 'GET', url: '/api/users/auth', session: fuzzer })).status !== 200) {
        await newFuzzer();
      }
    }
    console.log(`Edges: ${sent} requests`);
    expect(failures).toEqual([]);
    expect(await hashOrg(db, B.id), "organisation B's rows changed").toBe(before);
  }, 60_000);

  it('a 10 MB body: 413 with the error shape on every state-changing route, never a 5xx', async () => {
    const before = await hashOrg(db, B.id);
    await newFuzzer(); // none of the per-user limits the fuzzing used up
    const huge = Buffer.alloc(10 * 1024 * 1024, 'a');
    const json = Buffer.concat([Buffer.from('{"name":"'), huge, Buffer.from('"}')]);
    const upload = multipartImage(huge, 'huge.png');
    const failures: string[] = [];
    let checked = 0;
    for (const route of routes.filter((r) => STATE_CHANGING.has(r.method))) {
      const path = fillPath(route.url, await pathValues(app, db, A, route));
      const ip = nextTestIp();
      const session = needsUser(route) ? fuzzer : await guest(app, ip);
      const answer = await send(app, {
        method: route.method,
        url: path,
        session,
        raw: json,
        remoteAddress: ip,
      });
      checked += 1;
      if (answer.status !== 413 || !isErrorShape(answer))
        failures.push(`${route.key}: ${answer.status} ${answer.body.slice(0, 200)}`);
      if (route.multipart) {
        // An upload too large is a 422 on its field (docs/api.md), never a 5xx.
        const file = await send(app, { method: route.method, url: path, session, ...upload });
        if (file.status !== 422 || !file.body.includes('"image"')) {
          failures.push(`${route.key} (multipart): ${file.status} ${file.body.slice(0, 200)}`);
        }
      }
    }
    console.log(`10 MB bodies: ${checked} state-changing routes`);
    expect(failures).toEqual([]);
    expect(await hashOrg(db, B.id)).toBe(before);
  }, 60_000);
});
