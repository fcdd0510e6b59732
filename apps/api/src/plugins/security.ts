import compress from '@fastify/compress';
import helmet from '@fastify/helmet';
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { constants as zlib } from 'node:zlib';

/**
 * Security headers on every response (CSP, nosniff, frame-ancestors; HSTS only over HTTPS, where it
 * means something) and br/gzip compression of everything compressible.
 */
export const securityPlugin = fp(
  async (app: FastifyInstance) => {
    await app.register(helmet, {
      contentSecurityPolicy: {
        useDefaults: false,
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'"],
          styleSrc: ["'self'", "'unsafe-inline'"],
          imgSrc: ["'self'", 'data:', 'blob:'],
          fontSrc: ["'self'", 'data:'],
          connectSrc: ["'self'"],
          objectSrc: ["'none'"],
          baseUri: ["'self'"],
          formAction: ["'self'"],
          frameAncestors: ["'none'"],
        },
      },
      crossOriginEmbedderPolicy: false,
      // Same rule as CSP frame-ancestors 'none', for browsers that only know the old header.
      frameguard: { action: 'deny' },
      hsts: false,
    });
    app.addHook('onRequest', async (request, reply) => {
      if (request.protocol === 'https') {
        reply.header('strict-transport-security', 'max-age=31536000; includeSubDomains');
      }
    });
    await app.register(compress, {
      encodings: ['br', 'gzip'],
      threshold: 1024,
      brotliOptions: { params: { [zlib.BROTLI_PARAM_QUALITY]: 4 } },
    });
  },
  { name: 'security' },
);
