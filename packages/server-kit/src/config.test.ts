import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

describe('loadConfig', () => {
  it('has working defaults: SQLite file, 127.0.0.1:8080, demo on', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      host: '127.0.0.1',
      port: 8080,
      appUrl: 'http://127.0.0.1:8080',
      databaseUrl: 'sqlite:./data/kontrol.db',
      demo: true,
      trustProxy: false,
      sessionLifetimeMinutes: 120,
      smtpUrl: undefined,
    });
    expect(config.consoleDist).toMatch(/apps\/console\/dist$/);
  });

  it('keeps uploads next to the SQLite file unless UPLOADS_DIR names a folder', () => {
    expect(loadConfig({}).uploadsDir).toBe(resolve('data/uploads'));
    expect(loadConfig({ DATABASE_URL: 'sqlite:/var/lib/kontrol/k.db' }).uploadsDir).toBe(
      '/var/lib/kontrol/uploads',
    );
    expect(loadConfig({ DATABASE_URL: 'postgres://db/kontrol' }).uploadsDir).toBe(resolve('data/uploads'));
    expect(loadConfig({ DATABASE_URL: 'sqlite::memory:' }).uploadsDir).toBe(resolve('data/uploads'));
    expect(loadConfig({ UPLOADS_DIR: '/srv/uploads/' }).uploadsDir).toBe('/srv/uploads');
  });

  it('runs one API process unless API_WORKERS asks for more, or one per core with auto', () => {
    expect(loadConfig({}).workers).toBe(1);
    expect(loadConfig({ API_WORKERS: '4' }).workers).toBe(4);
    expect(loadConfig({ API_WORKERS: 'auto' }).workers).toBe(availableParallelism());
    expect(() => loadConfig({ API_WORKERS: '0' })).toThrow(ConfigError);
    expect(() => loadConfig({ API_WORKERS: 'many' })).toThrow(ConfigError);
  });

  it('keeps 128 MiB of list answers per process unless KEPT_ANSWERS_MB says otherwise, within 16 MiB–16 GiB', () => {
    expect(loadConfig({}).keptAnswersMaxBytes).toBe(128 * 1024 * 1024);
    expect(loadConfig({ KEPT_ANSWERS_MB: '512' }).keptAnswersMaxBytes).toBe(512 * 1024 * 1024);
    expect(() => loadConfig({ KEPT_ANSWERS_MB: '8' })).toThrow(ConfigError);
    expect(() => loadConfig({ KEPT_ANSWERS_MB: 'lots' })).toThrow(ConfigError);
  });

  it('keeps an idle PostgreSQL connection 10 minutes unless DATABASE_POOL_IDLE_SECONDS says otherwise', () => {
    expect(loadConfig({}).databasePoolIdleMs).toBe(600_000);
    expect(loadConfig({ DATABASE_POOL_IDLE_SECONDS: '30' }).databasePoolIdleMs).toBe(30_000);
    expect(() => loadConfig({ DATABASE_POOL_IDLE_SECONDS: '0' })).toThrow(/DATABASE_POOL_IDLE_SECONDS/);
    expect(() => loadConfig({ DATABASE_POOL_IDLE_SECONDS: 'soon' })).toThrow(/DATABASE_POOL_IDLE_SECONDS/);
  });

  it('turns the demo off in production unless DEMO says otherwise, and with DEMO=0', () => {
    expect(loadConfig({ NODE_ENV: 'production' }).demo).toBe(false);
    expect(loadConfig({ NODE_ENV: 'production', DEMO: '1' }).demo).toBe(true);
    expect(loadConfig({ DEMO: '0' }).demo).toBe(false);
  });

  it('derives APP_URL from HOST and PORT, and strips a trailing slash from a given one', () => {
    expect(loadConfig({ HOST: '0.0.0.0', PORT: '9000' }).appUrl).toBe('http://127.0.0.1:9000');
    expect(loadConfig({ APP_URL: 'https://kontrol.example.com/' }).appUrl).toBe(
      'https://kontrol.example.com',
    );
  });

  it('reads TRUST_PROXY as a flag, a hop count or a list of addresses', () => {
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ TRUST_PROXY: '0' }).trustProxy).toBe(false);
    const hops = loadConfig({ TRUST_PROXY: '2' }).trustProxy as (address: string, hop: number) => boolean;
    expect([hops('a', 0), hops('a', 1), hops('a', 2)]).toEqual([true, true, false]);
    expect(loadConfig({ TRUST_PROXY: '127.0.0.1,10.0.0.0/8' }).trustProxy).toBe('127.0.0.1,10.0.0.0/8');
  });

  it('limits invitations per organisation, 10 an hour and 50 a day unless told otherwise', () => {
    expect(loadConfig({}).invitations).toEqual({ perHour: 10, perDay: 50 });
    expect(loadConfig({ INVITES_PER_HOUR: '40', INVITES_PER_DAY: '400' }).invitations).toEqual({
      perHour: 40,
      perDay: 400,
    });
    expect(() => loadConfig({ INVITES_PER_HOUR: '0' })).toThrow(ConfigError);
    expect(() => loadConfig({ INVITES_PER_DAY: 'many' })).toThrow(ConfigError);
  });

  it('treats empty variables as unset', () => {
    expect(loadConfig({ PORT: '', SMTP_URL: '' })).toMatchObject({ port: 8080, smtpUrl: undefined });
  });

  it('names every invalid variable in one clear error', () => {
    expect(() => loadConfig({ PORT: 'eighty', LOG_LEVEL: 'loud', DEMO: 'maybe' })).toThrow(ConfigError);
    try {
      loadConfig({ PORT: 'eighty', LOG_LEVEL: 'loud' });
    } catch (error) {
      expect((error as Error).message).toMatch(/^Invalid configuration:\n {2}PORT: .+\n {2}LOG_LEVEL: .+/);
    }
  });
});
