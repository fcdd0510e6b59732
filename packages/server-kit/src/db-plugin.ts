import type { Database, DatabaseHandle, DialectName } from '@kontrol/db';
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';

declare module 'fastify' {
  interface FastifyInstance {
    db: Kysely<Database>;
    dialect: DialectName;
    /** The handle under `db`, for the few reads that go to the driver (the CSV export). */
    database: DatabaseHandle;
  }
}

/** Makes the database available as `app.db`; whoever opened it closes it. */
export const dbPlugin = fp(
  async (app: FastifyInstance, options: { database: DatabaseHandle }) => {
    app.decorate('db', options.database.db);
    app.decorate('dialect', options.database.dialect);
    app.decorate('database', options.database);
  },
  { name: 'db' },
);
