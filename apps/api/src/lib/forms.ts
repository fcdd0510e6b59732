import type { FastifyInstance, FastifyRequest } from 'fastify';
import qs from 'qs';
import type { z } from 'zod';
import { HttpError } from '@kontrol/server-kit';

export const FORM_CONTENT_TYPE = 'application/x-www-form-urlencoded';

/**
 * Limits of a form body, besides its size (the route's `bodyLimit`, 1 MiB by default): more
 * fields, or a list index past the limit, is 413 rather than a request silently cut short; deeper
 * brackets than `depth` stay one literal key, which no schema accepts.
 */
const FORM_LIMITS = { depth: 5, arrayLimit: 1000, parameterLimit: 1000 } as const;

/** Bodies that came as a form: their values are all text, so the validator may read them as the schema's types. */
const formBodies = new WeakSet<object>();

export function isFormBody(value: unknown): boolean {
  return typeof value === 'object' && value !== null && formBodies.has(value);
}

/**
 * The fields of a form body, bracket keys made lists and objects; a RangeError past
 * {@link FORM_LIMITS}. The parsed object is marked as a form for the validator.
 */
export function readForm(text: string): Record<string, unknown> {
  const parsed = qs.parse(text, { ...FORM_LIMITS, throwOnLimitExceeded: true });
  formBodies.add(parsed);
  return parsed;
}

/** A form's charset, when the content type names one: only UTF-8 is read (what browsers send for a UTF-8 page). */
function charsetOf(request: FastifyRequest): string | undefined {
  const match = /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(request.headers['content-type'] ?? '');
  return match?.[1]?.toLowerCase();
}

/**
 * `application/x-www-form-urlencoded`, as a Laravel backend reads it: bracket keys make lists and
 * objects (`steps[0][mode]=dry`), an empty body is an empty form. Device routes read JSON only
 * (docs/device-protocol.md). Prototype keys (`__proto__`, `constructor[prototype]`) are dropped by
 * qs. The parser runs after the access hook, so a state change without the CSRF header is 419
 * before its body is read: a cross-site HTML form cannot set that header.
 */
export function formBodyParser(app: FastifyInstance): void {
  app.addContentTypeParser(FORM_CONTENT_TYPE, { parseAs: 'string' }, (request, body, done) => {
    if (request.routeOptions.config.access === 'device') {
      done(new HttpError(415, 'http.unsupported_media'), undefined);
      return;
    }
    const charset = charsetOf(request);
    if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') {
      done(new HttpError(415, 'http.unsupported_media'), undefined);
      return;
    }
    let parsed: Record<string, unknown>;
    try {
      parsed = readForm(body as string);
    } catch {
      done(new HttpError(413, 'http.payload_too_large'), undefined);
      return;
    }
    done(null, parsed);
  });
}

const NUMBER = /^\s*[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?\s*$/;
const TRUE = new Set(['1', 'true', 'on']);
const FALSE = new Set(['0', 'false', 'off']);
/** A list sent as `0=…&1=…` (qs keeps a top-level list as an object). */
const INDEX = /^(?:0|[1-9]\d{0,5})$/;
/** Each round reads the text of one level more; forms are at most {@link FORM_LIMITS}.depth deep. */
const MAX_ROUNDS = FORM_LIMITS.depth + 3;

interface Fix {
  path: PropertyKey[];
  value: unknown;
}

const REMOVE = Symbol('remove');

/** What an emptied field (`name=`) is where null is refused: what the schema takes for "nothing". */
const EMPTY: Partial<Record<string, () => unknown>> = {
  string: () => '',
  array: () => [],
  object: () => ({}),
  record: () => ({}),
};

/** What the form's `input` is as the type a zod issue expected, if the form could have meant it. */
function reading(issue: z.core.$ZodIssue, input: unknown, emptied: boolean): unknown {
  if (issue.code === 'invalid_value' && typeof input === 'string') {
    return issue.values.find(
      (value) => (typeof value === 'number' || typeof value === 'boolean') && String(value) === input,
    );
  }
  if (issue.code !== 'invalid_type') return undefined;
  // An empty field was read as null (Laravel's ConvertEmptyStringsToNull); where null is not
  // taken, it is the schema's empty text, list or object, else absent (so "required" is said).
  if (input === null && emptied) return EMPTY[issue.expected]?.() ?? REMOVE;
  if (typeof input === 'string') {
    switch (issue.expected) {
      case 'number':
      case 'int':
        return NUMBER.test(input) ? Number(input) : undefined;
      case 'boolean':
        return TRUE.has(input) ? true : FALSE.has(input) ? false : undefined;
      case 'array':
        return [input];
      default:
        return undefined;
    }
  }
  if (issue.expected === 'array' && typeof input === 'object' && input !== null && !Array.isArray(input)) {
    const keys = Object.keys(input);
    if (keys.every((key) => INDEX.test(key))) {
      return keys.sort((a, b) => Number(a) - Number(b)).map((key) => (input as Record<string, unknown>)[key]);
    }
  }
  return undefined;
}

/** Every empty text of the form becomes null; their paths are kept to undo it where null is refused. */
function emptyToNull(value: unknown, path: PropertyKey[], emptied: Set<string>): void {
  if (typeof value !== 'object' || value === null) return;
  for (const [key, child] of Object.entries(value)) {
    const at = [...path, Array.isArray(value) ? Number(key) : key];
    if (child === '') {
      (value as Record<string, unknown>)[key] = null;
      emptied.add(JSON.stringify(at));
    } else emptyToNull(child, at, emptied);
  }
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let value = root;
  for (const key of path) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

/** The fixes the issues ask for; of a union's branches, the first that has any. */
function fixesOf(
  issues: readonly z.core.$ZodIssue[],
  root: unknown,
  base: readonly PropertyKey[],
  emptied: ReadonlySet<string>,
): Fix[] {
  const fixes: Fix[] = [];
  for (const issue of issues) {
    const path = [...base, ...issue.path];
    if (issue.code === 'invalid_union') {
      for (const branch of issue.errors) {
        const found = fixesOf(branch, root, path, emptied);
        if (found.length > 0) {
          fixes.push(...found);
          break;
        }
      }
      continue;
    }
    const value = reading(issue, valueAt(root, path), emptied.has(JSON.stringify(path)));
    if (value !== undefined) fixes.push({ path, value });
  }
  return fixes;
}

function apply(root: Record<string, unknown>, fix: Fix): void {
  const parent = valueAt(root, fix.path.slice(0, -1));
  if (typeof parent !== 'object' || parent === null) return;
  const key = fix.path[fix.path.length - 1] as PropertyKey;
  if (fix.value === REMOVE) delete (parent as Record<PropertyKey, unknown>)[key];
  else (parent as Record<PropertyKey, unknown>)[key] = fix.value;
}

/**
 * Validates a form body with the route's schema, reading its texts as the types the schema asks
 * for, as Laravel's rules read form fields: numbers (`12`, `-1.5`), booleans (`1`/`0`,
 * `true`/`false`, `on`/`off`), values of a literal or enum (`2` for the number 2), a single value
 * for a list, and an empty field as null (where null is refused: an empty text, list or object if
 * the schema takes one there, else absent). Only what the schema refused is read again, guided by
 * its issues; the schema still decides everything.
 */
export function parseFormBody<T>(
  schema: z.ZodType<T>,
  body: Record<string, unknown>,
): ReturnType<z.ZodType<T>['safeParse']> {
  const emptied = new Set<string>();
  emptyToNull(body, [], emptied);
  let result = schema.safeParse(body, { reportInput: true });
  for (let round = 0; round < MAX_ROUNDS && !result.success; round += 1) {
    const fixes = fixesOf(result.error.issues, body, [], emptied);
    if (fixes.length === 0) break;
    for (const fix of fixes) apply(body, fix);
    result = schema.safeParse(body, { reportInput: true });
  }
  return result;
}
