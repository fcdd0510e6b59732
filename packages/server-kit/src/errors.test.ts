import { pickLocale, translate } from '@kontrol/contracts';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { errorsPlugin } from './errors.js';

/** A bare Fastify with the error handler and one route that throws `error`. */
async function answer(error: unknown, language = 'ru') {
  const app = Fastify({ logger: false });
  app.decorateRequest('locale', 'ru');
  app.addHook('onRequest', async (request) => {
    request.locale = pickLocale(request.headers['accept-language']);
  });
  await app.register(errorsPlugin);
  app.get('/', async () => {
    throw error;
  });
  try {
    return await app.inject({ url: '/', headers: { 'accept-language': language } });
  } finally {
    await app.close();
  }
}

const coded = (code: string, message = 'failed') => Object.assign(new Error(message), { code });

describe('the error handler and storage failures (docs/operations.md, "Faults")', () => {
  it('answers a database that does not answer with 503, Retry-After and a message in the language asked', async () => {
    for (const error of [
      coded('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432'),
      coded('57P01', 'terminating connection due to administrator command'),
      coded('57P03', 'the database system is starting up'),
      new Error('Connection terminated unexpectedly'),
      coded('SQLITE_BUSY', 'database is locked'),
      coded('SQLITE_IOERR_WRITE', 'disk I/O error'),
    ]) {
      const ru = await answer(error);
      expect(ru.statusCode, error.message).toBe(503);
      expect(ru.headers['retry-after']).toBe('5');
      expect(ru.headers['content-type']).toMatch(/^application\/json/);
      expect(ru.json()).toEqual({ message: translate('ru', 'http.database_unavailable') });
      const en = await answer(error, 'en');
      expect(en.json()).toEqual({ message: translate('en', 'http.database_unavailable') });
    }
  });

  it('says when the disk is full, and when the storage is read-only', async () => {
    for (const error of [coded('SQLITE_FULL', 'database or disk is full'), coded('ENOSPC'), coded('53100')]) {
      const res = await answer(error, 'en');
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ message: translate('en', 'http.storage_full') });
    }
    for (const error of [
      coded('SQLITE_READONLY', 'attempt to write a readonly database'),
      coded('SQLITE_READONLY_DBMOVED'),
      coded('EROFS'),
    ]) {
      const res = await answer(error);
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ message: translate('ru', 'http.storage_read_only') });
    }
    const wrapped = await answer(new Error('could not save', { cause: coded('SQLITE_FULL') }));
    expect(wrapped.json()).toEqual({ message: translate('ru', 'http.storage_full') });
  });

  it('keeps other failures a 500 without details', async () => {
    for (const error of [new Error('boom'), coded('SQLITE_CORRUPT', 'database disk image is malformed')]) {
      const res = await answer(error, 'en');
      expect(res.statusCode).toBe(500);
      expect(res.json()).toEqual({ message: translate('en', 'http.server_error') });
    }
  });
});
