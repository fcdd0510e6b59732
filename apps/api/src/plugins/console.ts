import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import { translate } from '@kontrol/contracts';
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';

const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * Serves the built console: hashed assets cached for a year, `index.html` never cached, and every
 * other page path answered with `index.html` so the console's router can show it (or its own
 * not-found page). API paths that match nothing answer a JSON 404.
 */
export const consolePlugin = fp(
  async (app: FastifyInstance, options: { root: string }) => {
    const indexFile = join(options.root, 'index.html');
    const built = existsSync(indexFile);
    if (built) {
      await app.register(fastifyStatic, {
        root: options.root,
        prefix: '/',
        wildcard: false,
        index: false,
        preCompressed: true,
        setHeaders: (reply, path) => {
          reply.header('cache-control', path.includes('/assets/') ? IMMUTABLE : 'no-cache');
        },
      });
    } else {
      app.log.warn({ root: options.root }, 'console is not built; only the API is served');
    }

    app.setNotFoundHandler((request, reply) => {
      const path = request.url.split('?')[0] ?? '';
      const isPage =
        (request.method === 'GET' || request.method === 'HEAD') &&
        !path.startsWith('/api/') &&
        !path.startsWith('/assets/') &&
        built;
      if (isPage) {
        return reply.header('cache-control', 'no-cache').sendFile('index.html');
      }
      return reply.code(404).send({ message: translate(request.locale, 'http.not_found') });
    });
  },
  { name: 'console', dependencies: ['auth'] },
);
