// The baseline of bench/devices-api.mjs: a bare Fastify answering `{hello: 'world'}` on PORT, in
// WORKERS processes (node:cluster when above 1), as the real server runs.
import cluster from 'node:cluster';
import Fastify from 'fastify';

const workers = Number(process.env.WORKERS ?? 1);
if (workers > 1 && cluster.isPrimary) {
  for (let i = 0; i < workers; i += 1) cluster.fork();
  process.once('SIGTERM', () => {
    for (const worker of Object.values(cluster.workers ?? {})) worker?.kill();
    process.exit(0);
  });
} else {
  const app = Fastify({ logger: false });
  app.get('/', async () => ({ hello: 'world' }));
  app.get('/readyz', async () => ({ ok: true }));
  await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT) });
}
