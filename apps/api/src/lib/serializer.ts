import fastJson from 'fast-json-stringify';
import type { FastifySerializerCompiler } from 'fastify';
import { serializerCompiler as zodSerializerCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';

type JsonSchema = Record<string, unknown>;

/**
 * `anyOf: [{type: T, …}, {type: 'null'}]` (zod's `.nullable()`) becomes `{type: [T, 'null'], …}`:
 * fast-json-stringify writes that directly, where an `anyOf` makes it test every value against
 * each branch first. Everything else is walked unchanged.
 */
function simplify(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(simplify);
  if (typeof schema !== 'object' || schema === null) return schema;
  const node: JsonSchema = Object.fromEntries(
    Object.entries(schema).map(([key, value]) => [key, simplify(value)]),
  );
  const anyOf = node.anyOf;
  if (Array.isArray(anyOf) && anyOf.length === 2) {
    const nullIndex = anyOf.findIndex((branch: JsonSchema) => branch.type === 'null');
    const other = anyOf[1 - nullIndex] as JsonSchema | undefined;
    if (nullIndex !== -1 && other && typeof other.type === 'string' && !('anyOf' in other)) {
      const rest = { ...node };
      delete rest.anyOf;
      return { ...rest, ...other, type: [other.type, 'null'] };
    }
  }
  return node;
}

/**
 * Writes every answer with fast-json-stringify compiled from the route's zod response schema
 * (zod's own JSON Schema of its output): only the declared fields leave the server, a missing
 * required field is an error (500, logged), and nothing is parsed twice — checking a response
 * with zod and then `JSON.stringify` cost more than the rest of a devices page together (see
 * docs/benchmarks.md). A schema JSON Schema cannot express (a transform, a custom type) keeps
 * the zod serializer.
 */
export const serializerCompiler: FastifySerializerCompiler<z.ZodType> = (route) => {
  const compiled = compiledSerializers.get(route.schema);
  if (compiled) return compiled;
  let jsonSchema: unknown;
  try {
    jsonSchema = z.toJSONSchema(route.schema, { io: 'output', unrepresentable: 'throw', target: 'draft-7' });
  } catch {
    return zodSerializerCompiler(route);
  }
  const schema = simplify(jsonSchema) as JsonSchema;
  delete schema.$schema;
  const serialize = fastJson(schema);
  compiledSerializers.set(route.schema, serialize);
  return serialize;
};

/**
 * A writer depends on its schema only, so it is compiled once per schema and process: a schema
 * several routes share is compiled once, and so is each schema of an app built again in the same
 * process (the tests build one per file). Compiling was half the time of building the app.
 */
const compiledSerializers = new WeakMap<z.ZodType, (data: unknown) => string>();
