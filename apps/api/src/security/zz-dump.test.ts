import diagnostics from 'node:diagnostics_channel';
import type { FastifyInstance } from 'fastify';
import { it } from 'vitest';
import { z } from 'zod';
import { buildTestApp } from '../test/test-app.js';
import { writeFileSync } from 'node:fs';

it('dumps', async () => {
  const out: string[] = [];
  const ch = diagnostics.channel('fastify.initialization');
  const sub = (m: unknown) => {
    const app = (m as { fastify: FastifyInstance }).fastify;
    app.addHook('onRoute', (r) => {
      if (r.method === 'HEAD' || r.url.startsWith('/api/docs')) return;
      for (const part of ['params', 'querystring', 'body'] as const) {
        const s = r.schema?.[part] as z.ZodType | undefined;
        if (!s) continue;
        let js: unknown;
        try { js = z.toJSONSchema(s, { io: 'input', unrepresentable: 'any' }); } catch (e) { js = String(e); }
        out.push(`### ${String(r.method)} ${r.url} ${part}\n${JSON.stringify(js)}`);
      }
    });
  };
  ch.subscribe(sub);
  const t = await buildTestApp();
  ch.unsubscribe(sub);
  writeFileSync('/tmp/schemas.txt', out.join('\n'));
  await t.close();
});
