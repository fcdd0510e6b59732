import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import qs from 'qs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  B_MARKER,
  buildOrg,
  buildVictim,
  hintsFor,
  kindByPrefix,
  kindOfParam,
  makeResource,
  multipartImage,
  pathValues,
  snapshotDiff,
  snapshotOrg,
  type Kind,
  type Org,
} from './fixtures.js';
import { startFakeTelegram } from '../fake-telegram.js';
import { send, type Answer, type SendOptions } from './http.js';
import { buildAppWithRoutes, fillPath, needsUser, pathParams, type RouteInfo } from './route-table.js';
import { propertiesOf, propertySchema, takesArray, validExample, type Hints } from './values.js';

/**
 * Tenancy (docs/api.md "Access"): another organisation's id answers as a missing one, whether it
 * is in the path (404), a body or a query (404 or 422), and nothing of that organisation changes
 * (its rows in the database, compared before and after each request). Driven by the route table:
 * a route's path parameter is matched to the kind of row it names by its path, and a body or
 * query field by its name; a new route with an unmatched id parameter fails the suite until it is
 * matched here.
 */

const uploadsDir = mkdtempSync(join(tmpdir(), 'kontrol-security-uploads-'));
// A Bot API of our own, so the Telegram integration routes run their whole course offline.
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

/** Body and query fields naming rows of the caller's organisation, by name. */
const ID_FIELDS: Record<string, Kind> = {
  device_id: 'device',
  device_ids: 'device',
  device: 'device',
  devices: 'device',
  set_id: 'set',
  set_ids: 'set',
  recipe_ids: 'recipe',
  address_id: 'address',
  room_id: 'room',
  template_id: 'template',
  acl_role_id: 'role',
  assignee_id: 'user',
  user_id: 'user',
  bind_ids: 'bind',
};
/** Fields whose kind depends on the route (`id`, `ids`): the kind of the route's path. */
const ROUTE_KIND_FIELDS = new Set(['id', 'ids', 'up_to_id']);
/**
 * Fields that are a bound, not a reference (`up_to_id`: "everything of mine up to this id"): B's
 * id must answer exactly as an id that exists nowhere.
 */
const BOUND_FIELDS = new Set(['up_to_id']);
const MISSING_ID = 2_000_000_000;

let A: Org;
let victim: Awaited<ReturnType<typeof buildVictim>>;
let hintsA: Hints;

beforeAll(async () => {
  A = await buildOrg(app, db, 'ORG-A');
  victim = await buildVictim(app, db);
  hintsA = await hintsFor(app, db, A);
}, 60_000);

const bId = (kind: Kind) => victim.ids[kind];
/** A's row for a field, as the valid examples name it. */
const ownId = (hints: Hints, field: string) => {
  const hinted = hints[field]?.[0];
  return Array.isArray(hinted) ? (hinted[0] as unknown) : hinted;
};
const errorOn = (answer: Answer, field: string) => {
  if (answer.status !== 422) return false;
  const errors = (JSON.parse(answer.body) as { errors?: Record<string, unknown> }).errors ?? {};
  return Object.keys(errors).some((key) => key === field || key.startsWith(`${field}.`));
};

interface Failure {
  route: string;
  case: string;
  problem: string;
}

/** Sends as A's admin and checks that B's rows and (when asked) A's are unchanged. */
async function sendAndCompare(
  options: SendOptions,
  failures: Failure[],
  label: { route: string; case: string },
  alsoA = false,
) {
  const beforeB = await snapshotOrg(db, victim.org.id);
  const beforeA = alsoA ? await snapshotOrg(db, A.id) : undefined;
  const answer = await send(app, { ...options, session: A.admin });
  const afterB = await snapshotOrg(db, victim.org.id);
  const diffB = snapshotDiff(beforeB, afterB);
  if (Object.keys(diffB).length > 0) {
    failures.push({
      ...label,
      problem: `B changed (${answer.status}): ${JSON.stringify(diffB).slice(0, 600)}`,
    });
  }
  if (answer.body.includes(B_MARKER)) {
    failures.push({
      ...label,
      problem: `B's data in the answer (${answer.status}): ${answer.body.slice(0, 300)}`,
    });
  }
  if (beforeA && answer.status >= 400) {
    const diffA = snapshotDiff(beforeA, await snapshotOrg(db, A.id));
    if (Object.keys(diffA).length > 0) {
      failures.push({
        ...label,
        problem: `a refused request changed A (${answer.status}): ${JSON.stringify(diffA).slice(0, 600)}`,
      });
    }
  }
  return answer;
}

/** A body (JSON or an upload) and query that A's rows make valid for the route. */
function validRequest(route: RouteInfo, failures: Failure[], hints = hintsA) {
  const extra: Pick<SendOptions, 'json' | 'raw' | 'contentType'> = {};
  let query = '';
  if (route.body) {
    const example = validExample(route.body, hints);
    if (example.issues !== undefined)
      failures.push({ route: route.key, case: 'valid body', problem: example.issues });
    else extra.json = example.value;
  } else if (route.multipart) {
    Object.assign(extra, multipartImage());
  }
  if (route.querystring) {
    const example = validExample(route.querystring, hints);
    if (example.issues !== undefined)
      failures.push({ route: route.key, case: 'valid query', problem: example.issues });
    else query = qs.stringify(example.value);
  }
  return { extra, query, body: extra.json as Record<string, unknown> | undefined };
}

const pathOfA = (route: RouteInfo) => pathValues(app, db, A, route);

const counts: Record<string, number> = {};
const count = (what: string) => {
  counts[what] = (counts[what] ?? 0) + 1;
};
afterAll(() => console.log(`Cross-organisation checks: ${JSON.stringify(counts)}`));

describe("another organisation's ids", () => {
  it("in the path: 404, B unchanged, and the same request with A's own row is not a 404", async () => {
    const failures: Failure[] = [];
    const table: string[] = [];
    const candidates = routes.filter((route) => needsUser(route) && pathParams(route.url).length > 0);
    for (const route of candidates) {
      const params = pathParams(route.url);
      const kinds = params.map((name) => kindOfParam(route, name));
      params.forEach((name, i) => {
        if (kinds[i] === undefined) {
          failures.push({
            route: route.key,
            case: `:${name}`,
            problem: 'no kind of row known for this parameter',
          });
        }
      });
      const idParams = params.filter((_, i) => kinds[i]);
      if (idParams.length === 0) continue;
      count('path routes');
      const { extra, query } = validRequest(route, failures);
      const url = (values: Record<string, string | number>) =>
        `${fillPath(route.url, values)}${query ? `?${query}` : ''}`;

      // Each id parameter of B's in turn (the others A's), then all of them B's.
      const cases: [string, Record<string, string | number>][] = [];
      for (const name of idParams) {
        const values = await pathOfA(route);
        const kind = kinds[params.indexOf(name)] as Kind;
        values[name] = kind === 'service_entry' ? victim.entry.id : bId(kind);
        cases.push([`B's :${name}`, values]);
      }
      if (idParams.length > 1) {
        const values: Record<string, string | number> = {};
        params.forEach((name, i) => {
          const kind = kinds[i];
          values[name] =
            kind === 'service_entry'
              ? victim.entry.id
              : kind === 'device' && params.includes('entryId')
                ? victim.entry.deviceId
                : kind
                  ? bId(kind)
                  : '1';
        });
        cases.push(["all B's", values]);
      }
      for (const [label, values] of cases) {
        count('path requests');
        const answer = await sendAndCompare({ method: route.method, url: url(values), ...extra }, failures, {
          route: route.key,
          case: label,
        });
        if (answer.status !== 404) {
          failures.push({
            route: route.key,
            case: label,
            problem: `expected 404, got ${answer.status}: ${answer.body.slice(0, 200)}`,
          });
        }
      }
      // The control: A's own rows get past the tenancy check.
      const own = await send(app, {
        method: route.method,
        url: url(await pathOfA(route)),
        session: A.admin,
        ...extra,
      });
      table.push(`${route.key.padEnd(56)} B → 404, A's own → ${own.status}`);
      if (own.status === 404 || own.status >= 500) {
        failures.push({
          route: route.key,
          case: "A's own rows",
          problem: `got ${own.status}: ${own.body.slice(0, 200)}`,
        });
      }
    }
    console.log(`Path ids:\n${table.join('\n')}`);
    expect(failures).toEqual([]);
  }, 120_000);

  it('in a body: 404 or 422 naming the field; neither organisation changes', async () => {
    const failures: Failure[] = [];
    const table: string[] = [];
    for (const route of routes.filter((r) => needsUser(r) && r.body)) {
      const fields = propertiesOf(route.body).filter(
        (field) => ID_FIELDS[field] || ROUTE_KIND_FIELDS.has(field),
      );
      for (const field of fields) {
        const kind = ID_FIELDS[field] ?? kindByPrefix(route.url);
        if (!kind) continue;
        count('body fields');
        // Rows of A of their own for each case: a control may consume them (a delete, a deploy).
        const hints = await hintsFor(app, db, A);
        const { body } = validRequest(route, failures, hints);
        const values = await pathOfA(route);
        const isArray = takesArray(propertySchema(route.body, field));
        const payload = { ...body, [field]: isArray ? [bId(kind)] : bId(kind) };
        const answer: Answer = await sendAndCompare(
          { method: route.method, url: fillPath(route.url, values), json: payload },
          failures,
          { route: route.key, case: `body ${field}` },
          true,
        );
        table.push(`${route.key.padEnd(48)} ${field.padEnd(14)} → ${answer.status}`);
        if (BOUND_FIELDS.has(field)) {
          const missing = await send(app, {
            method: route.method,
            url: fillPath(route.url, values),
            json: { ...body, [field]: MISSING_ID },
            session: A.admin,
          });
          if (missing.status !== answer.status || missing.body !== answer.body) {
            failures.push({
              route: route.key,
              case: `body ${field}`,
              problem: `B's id answers ${answer.status} ${answer.body.slice(0, 100)}, a missing one ${missing.status} ${missing.body.slice(0, 100)}`,
            });
          }
        } else if (answer.status === 422) {
          if (!errorOn(answer, field)) {
            failures.push({
              route: route.key,
              case: `body ${field}`,
              problem: `422 not on ${field}: ${answer.body.slice(0, 200)}`,
            });
          }
          // The control: with A's own row in the field, the field is accepted.
          const own = await send(app, {
            method: route.method,
            url: fillPath(route.url, await pathOfA(route)),
            json: { ...body, [field]: isArray ? [ownId(hints, field)] : ownId(hints, field) },
            session: A.admin,
          });
          if (own.status >= 500 || errorOn(own, field)) {
            failures.push({
              route: route.key,
              case: `body ${field}: A's own`,
              problem: `${own.status}: ${own.body.slice(0, 200)}`,
            });
          }
        } else if (answer.status !== 404) {
          failures.push({
            route: route.key,
            case: `body ${field}`,
            problem: `expected 404/422, got ${answer.status}: ${answer.body.slice(0, 200)}`,
          });
        }
      }
    }
    console.log(`Body ids:\n${table.join('\n')}`);
    expect(failures).toEqual([]);
  }, 120_000);

  it('in a query: 404 or 422; in list filters: nothing of B is listed', async () => {
    const failures: Failure[] = [];
    const table: string[] = [];
    for (const route of routes.filter((r) => needsUser(r) && r.querystring)) {
      const fields = propertiesOf(route.querystring).filter(
        (field) => ID_FIELDS[field] || ROUTE_KIND_FIELDS.has(field),
      );
      const values = await pathOfA(route);
      for (const field of fields) {
        const kind = ID_FIELDS[field] ?? kindByPrefix(route.url);
        if (!kind) continue;
        count('query fields');
        const { query } = validRequest(route, failures);
        const parsed = qs.parse(query) as Record<string, unknown>;
        parsed[field] = String(bId(kind));
        const answer = await sendAndCompare(
          { method: route.method, url: `${fillPath(route.url, values)}?${qs.stringify(parsed)}` },
          failures,
          { route: route.key, case: `query ${field}` },
        );
        table.push(`${route.key.padEnd(48)} ${field.padEnd(14)} → ${answer.status}`);
        if (answer.status !== 404 && answer.status !== 422) {
          failures.push({
            route: route.key,
            case: `query ${field}`,
            problem: `expected 404/422, got ${answer.status}: ${answer.body.slice(0, 200)}`,
          });
        }
        // The control: A's own row in the field is found.
        parsed[field] = String(await makeResource(app, db, A, kind));
        const own = await send(app, {
          method: route.method,
          url: `${fillPath(route.url, values)}?${qs.stringify(parsed)}`,
          session: A.admin,
        });
        if (own.status === 404 || own.status >= 500 || errorOn(own, field)) {
          failures.push({
            route: route.key,
            case: `query ${field}: A's own`,
            problem: `${own.status}: ${own.body.slice(0, 200)}`,
          });
        }
      }
    }
    // Lists: a filter on B's id finds nothing (or the field is not filterable: 422).
    const lists = routes.filter(
      (r) =>
        needsUser(r) &&
        (propertiesOf(r.querystring).includes('filters') || propertiesOf(r.body).includes('filters')),
    );
    for (const route of lists) {
      const own = kindByPrefix(route.url);
      const filters: [string, Kind][] = [
        ...(own ? [['id', own] as [string, Kind]] : []),
        ...Object.entries(ID_FIELDS).filter(([field]) => field.endsWith('_id')),
      ];
      for (const [field, kind] of filters) {
        for (const operator of ['=', 'in'] as const) {
          const filter = { [field]: { operator, value: operator === 'in' ? [bId(kind)] : bId(kind) } };
          const { body, query } = validRequest(route, failures);
          const answer = route.querystring
            ? await sendAndCompare(
                {
                  method: route.method,
                  url: `${route.url}?${qs.stringify({ ...qs.parse(query), filters: filter })}`,
                },
                failures,
                { route: route.key, case: `filter ${field} ${operator}` },
              )
            : await sendAndCompare(
                { method: route.method, url: route.url, json: { ...body, filters: filter } },
                failures,
                { route: route.key, case: `filter ${field} ${operator}` },
              );
          count(answer.status === 200 ? 'list filters applied' : `list filters answered ${answer.status}`);
          if (answer.status === 200) {
            const listed = answer.headers['content-type']?.toString().startsWith('application/json')
              ? (JSON.parse(answer.body) as { data?: unknown[] }).data
              : [];
            if (Array.isArray(listed) && listed.length > 0) {
              failures.push({
                route: route.key,
                case: `filter ${field} ${operator}`,
                problem: `listed ${JSON.stringify(listed).slice(0, 300)}`,
              });
            }
          } else if (answer.status !== 422 && answer.status !== 404) {
            failures.push({
              route: route.key,
              case: `filter ${field} ${operator}`,
              problem: `got ${answer.status}: ${answer.body.slice(0, 200)}`,
            });
          }
        }
      }
      table.push(`${route.key.padEnd(48)} filters checked`);
    }
    console.log(`Query ids:\n${table.join('\n')}`);
    expect(failures).toEqual([]);
  }, 120_000);
});
