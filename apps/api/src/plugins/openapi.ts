import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';

/** OpenAPI 3 generated from the route schemas; browsable at `/api/docs`, raw at `/api/docs/json`. */
export const openApiPlugin = fp(
  async (app: FastifyInstance) => {
    await app.register(swagger, {
      openapi: {
        info: {
          title: 'Kontrol API',
          description:
            'Sanctum-style SPA API: call GET /sanctum/csrf-cookie, then send X-XSRF-TOKEN on state-changing requests. See docs/api.md.',
          version: '1',
        },
        components: {
          securitySchemes: {
            session: { type: 'apiKey', in: 'cookie', name: 'kontrol_session' },
            bearer: { type: 'http', scheme: 'bearer' },
          },
        },
        security: [{ session: [] }, { bearer: [] }],
      },
      transform: jsonSchemaTransform,
    });
    await app.register(swaggerUi, { routePrefix: '/api/docs', staticCSP: true });
  },
  { name: 'openapi' },
);
