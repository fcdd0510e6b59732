import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { serializerCompiler } from './serializer.js';

/** A bare Fastify with one route answering `payload` through the schema `response`. */
async function answer(response: z.ZodType, payload: unknown) {
  const app = Fastify({ logger: false });
  app.setSerializerCompiler(serializerCompiler);
  app.get('/', { schema: { response: { 200: response } } }, async () => payload);
  try {
    return await app.inject({ url: '/' });
  } finally {
    await app.close();
  }
}

const device = z.object({
  id: z.number().int(),
  name: z.string(),
  notes: z.string().nullable(),
  room: z.object({ id: z.number(), name: z.string() }).nullable(),
  last_online: z.object({ last_utc: z.iso.datetime().nullable() }),
});

describe('serializerCompiler (fast-json-stringify from the zod schema)', () => {
  it('writes only the declared fields, nulls and nested objects as they are', async () => {
    const res = await answer(z.object({ data: z.array(device) }), {
      data: [
        {
          id: 1,
          name: 'Печь «Север»',
          notes: null,
          room: { id: 5, name: 'Кухня', secret: 'x' },
          last_online: { last_utc: '2026-11-22T08:00:00.000Z' },
          credential_hash: 'must not leave the server',
        },
        { id: 2, name: 'Fryer', notes: 'n', room: null, last_online: { last_utc: null } },
      ],
    });
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toContain('credential_hash');
    expect(res.body).not.toContain('secret');
    expect(res.json()).toEqual({
      data: [
        {
          id: 1,
          name: 'Печь «Север»',
          notes: null,
          room: { id: 5, name: 'Кухня' },
          last_online: { last_utc: '2026-11-22T08:00:00.000Z' },
        },
        { id: 2, name: 'Fryer', notes: 'n', room: null, last_online: { last_utc: null } },
      ],
    });
  });

  it('refuses to answer without a required field (500), rather than send a broken shape', async () => {
    const res = await answer(device, { id: 1, notes: null, room: null, last_online: { last_utc: null } });
    expect(res.statusCode).toBe(500);
  });

  it('keeps zod for a schema JSON Schema cannot express', async () => {
    const res = await answer(z.object({ at: z.date() }), { at: new Date(0) });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ at: '1970-01-01T00:00:00.000Z' });
  });

  it('compiles a schema once: a second route or app with the same schema gets the same writer', async () => {
    const shared = z.object({ data: z.array(device) });
    const compile = (url: string, schema: z.ZodType) =>
      serializerCompiler({ schema, method: 'GET', url, httpStatus: '200' });
    const first = compile('/a', shared);
    expect(compile('/b', shared)).toBe(first);
    expect(compile('/a', z.object({ data: z.array(device) }))).not.toBe(first);
    // Still one route's answer written by the shared writer, extra fields left out.
    const res = await answer(shared, { data: [], extra: 'not declared' });
    expect(res.json()).toEqual({ data: [] });
  });
});
