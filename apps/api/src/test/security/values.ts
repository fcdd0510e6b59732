import fc from 'fast-check';
import qs from 'qs';
import { z } from 'zod';

/**
 * Request values made from a route's zod schema, through its JSON Schema (`z.toJSONSchema`, the
 * request side): a valid example for the checks that need the handler to run, and fast-check
 * arbitraries mixing valid-shaped values with hostile ones for the fuzzing.
 */
export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  default?: unknown;
}

export function jsonSchemaOf(schema: z.ZodType): JsonSchema {
  return z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
}

/** The JSON Schema of a top-level property of an object schema (or of its object options). */
export function propertySchema(schema: z.ZodType | undefined, name: string): JsonSchema | undefined {
  if (!schema) return undefined;
  const json = jsonSchemaOf(schema);
  return [json, ...(json.anyOf ?? []), ...(json.oneOf ?? [])].find((node) => node.properties?.[name])
    ?.properties?.[name];
}

/** True when the property takes an array (alone or among other types). */
export function takesArray(node: JsonSchema | undefined): boolean {
  if (!node) return false;
  return types(node).includes('array') || [...(node.anyOf ?? []), ...(node.oneOf ?? [])].some(takesArray);
}

/** The top-level property names of an object schema. */
export function propertiesOf(schema: z.ZodType | undefined): string[] {
  if (!schema) return [];
  const json = jsonSchemaOf(schema);
  const objects = [json, ...(json.anyOf ?? []), ...(json.oneOf ?? [])];
  return [...new Set(objects.flatMap((node) => Object.keys(node.properties ?? {})))];
}

const types = (node: JsonSchema): string[] =>
  node.type === undefined ? [] : Array.isArray(node.type) ? node.type : [node.type];

/** Candidate values by property name, tried in order until the whole value parses. */
export type Hints = Record<string, readonly unknown[]>;

let emailCounter = 0;

function exampleOf(
  node: JsonSchema,
  key: string | undefined,
  hints: Hints,
  choice: Map<string, number>,
  hintedOptionals = false,
): unknown {
  if (key !== undefined && hints[key]) return hints[key][choice.get(key) ?? 0];
  if (node.const !== undefined) return node.const;
  if (node.enum) return node.enum[0];
  const options = node.anyOf ?? node.oneOf;
  if (options) {
    const option = options.find((o) => !types(o).includes('null') || types(o).length > 1) ?? options[0];
    return option ? exampleOf(option, key, hints, choice, hintedOptionals) : null;
  }
  const type = types(node).find((t) => t !== 'null') ?? types(node)[0];
  switch (type) {
    case 'object': {
      const value: Record<string, unknown> = {};
      const required = new Set(node.required ?? []);
      for (const [name, child] of Object.entries(node.properties ?? {})) {
        if (required.has(name) || (hintedOptionals && hints[name])) {
          value[name] = exampleOf(child, name, hints, choice, hintedOptionals);
        }
      }
      return value;
    }
    case 'array': {
      const item = exampleOf(node.items ?? {}, undefined, hints, choice, hintedOptionals);
      return Array.from({ length: node.minItems ?? 0 }, () => item);
    }
    case 'string': {
      if (node.format === 'email') {
        emailCounter += 1;
        return `sample-${process.pid}-${emailCounter}@example.test`;
      }
      if (node.pattern) {
        const [matching] = fc.sample(fc.stringMatching(new RegExp(node.pattern)), { seed: 1, numRuns: 1 });
        return matching;
      }
      const min = node.minLength ?? 0;
      const max = node.maxLength ?? 64;
      return 'Sample'.padEnd(min, 'x').slice(0, Math.max(max, min));
    }
    case 'integer':
    case 'number': {
      const low =
        node.minimum ?? (node.exclusiveMinimum === undefined ? undefined : node.exclusiveMinimum + 1);
      const high =
        node.maximum ?? (node.exclusiveMaximum === undefined ? undefined : node.exclusiveMaximum - 1);
      let value = 1;
      if (low !== undefined && value < low) value = low;
      if (high !== undefined && value > high) value = high;
      return value;
    }
    case 'boolean':
      return false;
    case 'null':
      return null;
    default:
      return null;
  }
}

/**
 * A value `schema` accepts: its required properties (and, when that is not enough, the optional
 * ones with a hint), each from `hints` by its name when it has one (the next candidate is tried
 * while the value fails on that property), else made from its JSON Schema. Undefined, with the
 * issues, when no combination parses (add a hint).
 */
export function validExample(
  schema: z.ZodType,
  hints: Hints,
): { value: unknown; issues?: undefined } | { value?: undefined; issues: string } {
  const first = search(schema, hints, false);
  return first.issues === undefined ? first : search(schema, hints, true);
}

function search(
  schema: z.ZodType,
  hints: Hints,
  hintedOptionals: boolean,
): { value: unknown; issues?: undefined } | { value?: undefined; issues: string } {
  const json = jsonSchemaOf(schema);
  const choice = new Map<string, number>();
  for (let attempt = 0; attempt < 50; attempt += 1) {
    const value = exampleOf(json, undefined, hints, choice, hintedOptionals);
    const parsed = schema.safeParse(value);
    if (parsed.success) return { value };
    const advanced = parsed.error.issues.some((issue) =>
      issue.path.some((part) => {
        const key = String(part);
        const candidates = hints[key];
        const at = choice.get(key) ?? 0;
        if (!candidates || at + 1 >= candidates.length) return false;
        choice.set(key, at + 1);
        return true;
      }),
    );
    if (!advanced) {
      return {
        issues: `${JSON.stringify(value)}: ${parsed.error.issues
          .map((issue) => `${issue.path.join('.')} ${issue.message}`)
          .join('; ')}`,
      };
    }
  }
  return { issues: 'no combination of hints parses' };
}

/**
 * Values at and past the edges of a field, most valid by its schema and a few only just not: its
 * bounds, the edges of the database's integer (2^31 - 1, 2^31) and JavaScript's safe integer, a NUL
 * character and the longest text; inside arrays and objects (a filter's value, a recipe step),
 * one part at a time. Deterministic, so every field meets every edge on every run.
 */
export function edgeValues(node: JsonSchema, hints: Hints, depth = 0): unknown[] {
  const out: unknown[] = [];
  for (const option of [node, ...(node.anyOf ?? []), ...(node.oneOf ?? [])]) {
    for (const type of types(option)) {
      if (type === 'integer' || type === 'number') {
        const step = type === 'integer' ? 1 : 0.001;
        const low =
          option.minimum ??
          (option.exclusiveMinimum === undefined ? undefined : option.exclusiveMinimum + step);
        const high =
          option.maximum ??
          (option.exclusiveMaximum === undefined ? undefined : option.exclusiveMaximum - step);
        out.push(
          ...[low, high, 2 ** 31 - 1, 2 ** 31, Number.MAX_SAFE_INTEGER, -1, 0, 0.5].filter(
            (v) => v !== undefined,
          ),
        );
      } else if (type === 'string') {
        out.push('\u0000', 'x\u0000y', 'A'.repeat(Math.min(option.maxLength ?? 10_000, 100_000)));
      } else if (type === 'array' && depth < 3) {
        out.push(...edgeValues(option.items ?? {}, hints, depth + 1).map((edge) => [edge]));
      } else if (type === 'object' && depth < 3) {
        const base = (exampleOf(option, undefined, hints, new Map(), true) ?? {}) as Record<string, unknown>;
        for (const [name, child] of Object.entries(option.properties ?? {})) {
          for (const edge of edgeValues(child, hints, depth + 1)) out.push({ ...base, [name]: edge });
        }
        if (typeof option.additionalProperties === 'object') {
          for (const edge of edgeValues(option.additionalProperties, hints, depth + 1)) {
            out.push({ id: edge }, { name: edge }, { device_id: edge });
          }
        }
      }
    }
  }
  const seen = new Set<string>();
  return out.filter((value) => {
    const key = JSON.stringify(value);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

// ---------------------------------------------------------------------------------------------
// Hostile values

const nested = (depth: number, leaf: unknown, kind: 'array' | 'object'): unknown => {
  let value = leaf;
  for (let i = 0; i < depth; i += 1) value = kind === 'array' ? [value] : { a: value };
  return value;
};

/** An object with an own, enumerable `key` (so `__proto__` is sent as a key, not a prototype). */
export function withOwnKey(target: Record<string, unknown>, key: string, value: unknown) {
  Object.defineProperty(target, key, { value, enumerable: true, configurable: true, writable: true });
  return target;
}

export const SQL_FRAGMENTS = [
  "' OR 1=1 --",
  '"; DROP TABLE users; --',
  '1; DELETE FROM devices WHERE 1=1; --',
  "' UNION SELECT password_hash, email FROM users --",
  "%' OR '1'='1",
  "\\'; SELECT pg_sleep(5); --",
  '1)) OR ((1=1',
  "admin'--",
];

export const HOSTILE_STRINGS = [
  ...SQL_FRAGMENTS,
  'NaN',
  'Infinity',
  '-Infinity',
  '1e308',
  '-1e308',
  '1e999',
  '9007199254740993',
  '0x1F',
  'null',
  'undefined',
  'true',
  '',
  ' ',
  '\u0000',
  'nul\u0000inside',
  '\u202eevil\u202c',
  '\u2028\u2029',
  '\ufeffbom',
  '\u0007\u001b[31mred\u001b[0m',
  '\r\nSet-Cookie: injected=1',
  '\ud800',
  '😀'.repeat(50),
  'Ω≈ç√∫˜µ≤≥÷ Ж ע ش',
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  '{{7*7}}${7*7}',
  '../../../../etc/passwd',
  '..\\..\\windows\\win.ini',
  '%00%2e%2e%2f',
  '__proto__',
  'constructor',
  '=HYPERLINK("http://example.test")',
  'A'.repeat(100 * 1024),
];

export const HOSTILE_NUMBERS = [
  1e308,
  -1e308,
  2 ** 53 + 1,
  -(2 ** 53 + 1),
  Number.MAX_SAFE_INTEGER,
  Number.MIN_SAFE_INTEGER,
  2 ** 31,
  2 ** 31 - 1,
  -(2 ** 31) - 1,
  2 ** 63,
  -1,
  0,
  -0,
  0.5,
  1e-308,
  5e-324,
];

const protoObjects = () => [
  withOwnKey({}, '__proto__', { isAdmin: true, role: 'admin', organisation_id: 1 }),
  withOwnKey({}, 'constructor', { prototype: { polluted: true } }),
  withOwnKey({}, 'prototype', { polluted: true }),
];

export const HOSTILE_VALUES: readonly unknown[] = [
  ...HOSTILE_STRINGS,
  ...HOSTILE_NUMBERS,
  true,
  false,
  null,
  [],
  [{}],
  [[]],
  [1, 2, 3],
  ['a', null, {}],
  {},
  { a: 1 },
  { operator: '=', value: "' OR 1=1 --" },
  ...protoObjects(),
  nested(1000, 1, 'array'),
  nested(1000, 'x', 'object'),
  Array.from({ length: 10_000 }, (_, i) => i + 1),
];

export const hostileValue = (): fc.Arbitrary<unknown> => fc.constantFrom(...HOSTILE_VALUES);

/** Whole bodies no schema describes: broken UTF-8, prototype keys in the JSON text, deep nesting. */
export const RAW_BODIES: readonly { raw: Buffer | string; contentType: string }[] = [
  {
    raw: Buffer.concat([
      Buffer.from('{"name":"'),
      Buffer.from([0xff, 0xfe, 0xc3, 0x28, 0xed, 0xa0, 0x80, 0xf8, 0x88, 0x80, 0x80, 0x80]),
      Buffer.from('","title":"x"}'),
    ]),
    contentType: 'application/json',
  },
  { raw: Buffer.from([0xff, 0xfe, 0xfd, 0x00, 0x01]), contentType: 'application/json' },
  { raw: Buffer.from([0xc0, 0xaf, 0xe0, 0x80, 0xaf]), contentType: 'application/json; charset=utf-8' },
  { raw: '{"__proto__":{"isAdmin":true},"name":"x"}', contentType: 'application/json' },
  { raw: '{"constructor":{"prototype":{"isAdmin":true}}}', contentType: 'application/json' },
  { raw: `${'['.repeat(1000)}1${']'.repeat(1000)}`, contentType: 'application/json' },
  { raw: `${'{"a":'.repeat(1000)}1${'}'.repeat(1000)}`, contentType: 'application/json' },
  { raw: '{"name": "x", "name": "y"}', contentType: 'application/json' },
  { raw: '\ufeff{"name":"bom"}', contentType: 'application/json' },
  { raw: '{"name":', contentType: 'application/json' },
  { raw: '', contentType: 'application/json' },
  { raw: 'null', contentType: 'application/json' },
  { raw: '1e999', contentType: 'application/json' },
  { raw: '"just a string"', contentType: 'application/json' },
  { raw: 'name=x&__proto__[isAdmin]=1', contentType: 'application/x-www-form-urlencoded' },
  {
    raw: '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><x>&e;</x>',
    contentType: 'application/xml',
  },
  { raw: 'plain text', contentType: 'text/plain' },
];

/** Query strings no schema describes. */
export const RAW_QUERIES: readonly string[] = [
  `filters=${encodeURIComponent('{"__proto__":{"operator":"=","value":1}}')}`,
  `filters=${encodeURIComponent('{"id":{"operator":"in","value":[1,2,"\' OR 1=1 --"]}}')}`,
  `filters=${encodeURIComponent('{not json')}`,
  'filters[__proto__][operator]==&filters[__proto__][value]=1',
  'filters[constructor][prototype][x]=1',
  `filters[name][operator]=like&filters[name][value]=${encodeURIComponent("%' OR '1'='1")}`,
  `filters[id][operator]=in&${Array.from({ length: 300 }, (_, i) => `filters[id][value][${i}]=${i}`).join('&')}`,
  'page=1e308&per_page=-1',
  'page=9007199254740993&per_page=NaN',
  'page[]=1&page[]=2&per_page[a]=1',
  `${'a['.repeat(60)}x${']'.repeat(60)}=1`,
  '%E0%A4%A&%ff%fe=%c3%28',
  `sort=${encodeURIComponent('name; DROP TABLE devices; --')}&search=${encodeURIComponent("' OR 1=1 --")}`,
  `search=${'A'.repeat(100 * 1024)}`,
  Array.from({ length: 1500 }, (_, i) => `k${i}=${i}`).join('&'),
  'devices=1,2,3,-1,1e308,abc&start=NaN&finish=Infinity&ids=%00',
  'date=0000-00-00&tz=..%2F..%2Fetc%2Fpasswd&device=0',
];

export interface FuzzContext {
  /** Integers worth trying in id-like fields: ids of both organisations' rows. */
  knownIds: readonly number[];
  hints: Hints;
}

const PROTO_KEYS = ['__proto__', 'constructor', 'prototype'];

/** Valid-shaped values of `node` (4 in 5) or hostile ones (1 in 5), at every level. */
export function arbitraryOf(
  node: JsonSchema,
  context: FuzzContext,
  key?: string,
  depth = 0,
): fc.Arbitrary<unknown> {
  return fc.oneof(
    { weight: 4, arbitrary: shapedOf(node, context, key, depth) },
    { weight: 1, arbitrary: hostileValue() },
  );
}

function shapedOf(
  node: JsonSchema,
  context: FuzzContext,
  key: string | undefined,
  depth: number,
): fc.Arbitrary<unknown> {
  const hinted = key !== undefined ? context.hints[key] : undefined;
  const hint = hinted && hinted.length > 0 ? [fc.constantFrom(...hinted)] : [];
  if (depth > 6) return fc.constant(null);
  if (node.const !== undefined) return fc.constant(node.const);
  if (node.enum && node.enum.length > 0) return fc.constantFrom(...node.enum);
  const options = node.anyOf ?? node.oneOf;
  if (options && options.length > 0) {
    return fc.oneof(...hint, ...options.map((option) => shapedOf(option, context, key, depth + 1)));
  }
  const kinds = types(node);
  if (kinds.length > 1) {
    return fc.oneof(...hint, ...kinds.map((type) => shapedOf({ ...node, type }, context, key, depth + 1)));
  }
  switch (kinds[0]) {
    case 'object': {
      const properties = Object.entries(node.properties ?? {});
      const required = new Set(node.required ?? []);
      const entries = properties.map(([name, child]) =>
        fc.option(
          arbitraryOf(child, context, name, depth + 1).map((value) => [name, value] as const),
          { freq: required.has(name) ? 10 : 2, nil: undefined },
        ),
      );
      const extra =
        typeof node.additionalProperties === 'object'
          ? fc.array(
              fc.tuple(
                fc.oneof(
                  fc.string({ maxLength: 12 }),
                  fc.constantFrom('id', 'name', 'organisation_id', ...PROTO_KEYS),
                ),
                arbitraryOf(node.additionalProperties, context, undefined, depth + 1),
              ),
              { maxLength: 3 },
            )
          : fc
              .option(fc.tuple(fc.constantFrom(...PROTO_KEYS, 'organisation_id', 'id'), hostileValue()), {
                freq: 6,
                nil: undefined,
              })
              .map((pair) => (pair ? [pair] : []));
      return fc.tuple(fc.tuple(...entries), extra).map(([own, more]) => {
        const value: Record<string, unknown> = {};
        for (const entry of own) if (entry) withOwnKey(value, entry[0], entry[1]);
        for (const [name, child] of more) withOwnKey(value, name, child);
        return value;
      });
    }
    case 'array':
      return fc.array(arbitraryOf(node.items ?? {}, context, undefined, depth + 1), {
        maxLength: Math.min(node.maxItems ?? 4, 4),
      });
    case 'string':
      return fc.oneof(
        ...hint,
        fc.string({ maxLength: Math.min(node.maxLength ?? 40, 40) }),
        ...(node.pattern ? [fc.stringMatching(new RegExp(node.pattern))] : []),
        ...(node.format === 'email' ? [fc.emailAddress()] : []),
      );
    case 'integer':
    case 'number': {
      const low = node.minimum ?? node.exclusiveMinimum;
      const high = node.maximum ?? node.exclusiveMaximum;
      const bounded = {
        min: Math.max(low ?? -1_000_000, -1_000_000),
        max: Math.min(high ?? 1_000_000, 1_000_000),
      };
      const numbers =
        kinds[0] === 'integer'
          ? fc.integer(bounded.min <= bounded.max ? bounded : {})
          : fc.double({ ...bounded, noNaN: true });
      // The schema's own bounds and the edges of the database's integer: valid, and where it breaks.
      const edges = [low, high, 2 ** 31 - 1, 2 ** 31, -(2 ** 31) - 1].filter(
        (edge): edge is number =>
          edge !== undefined && (low === undefined || edge >= low) && (high === undefined || edge <= high),
      );
      return fc.oneof(
        ...hint,
        numbers,
        fc.constantFrom(...context.knownIds),
        ...(edges.length > 0 ? [fc.constantFrom(...edges)] : []),
      );
    }
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    default:
      return fc.oneof(...hint, fc.jsonValue({ maxDepth: 2 }));
  }
}

export type FuzzBody = { json: unknown } | { raw: Buffer | string; contentType: string };

/** Bodies for a route's body schema: values shaped by it, and now and then a raw hostile body. */
export function bodyArbitrary(schema: z.ZodType, context: FuzzContext): fc.Arbitrary<FuzzBody> {
  const json = jsonSchemaOf(schema);
  const valid = validExample(schema, context.hints);
  return fc.oneof(
    { weight: 6, arbitrary: arbitraryOf(json, context).map((value): FuzzBody => ({ json: value })) },
    ...(valid.issues === undefined
      ? [{ weight: 1, arbitrary: fc.constant<FuzzBody>({ json: valid.value }) }]
      : []),
    { weight: 2, arbitrary: fc.constantFrom<FuzzBody>(...RAW_BODIES) },
  );
}

/** Query strings for a route's querystring schema, in bracket form, and raw hostile ones. */
export function queryArbitrary(schema: z.ZodType, context: FuzzContext): fc.Arbitrary<string> {
  const json = jsonSchemaOf(schema);
  return fc.oneof(
    {
      weight: 6,
      arbitrary: arbitraryOf(json, context).map((value) =>
        value !== null && typeof value === 'object'
          ? qs.stringify(value, { encodeValuesOnly: false })
          : `q=${encodeURIComponent(String(value))}`,
      ),
    },
    { weight: 1, arbitrary: fc.constant(qs.stringify(validExample(schema, context.hints).value ?? {})) },
    { weight: 2, arbitrary: fc.constantFrom(...RAW_QUERIES) },
  );
}
