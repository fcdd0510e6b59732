import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import Fastify from 'fastify';
import { describe, expect, it, vi } from 'vitest';
import { buildAddress, buildDevice, buildOrganisation, buildRoom } from '../test/builders.js';
import { TestClient } from '../test/http-client.js';
import { useTestApp } from '../test/test-app.js';
import type { CurrentUser } from '../modules/users/users.repository.js';
import { KeptAnswers } from './kept-answers.js';

const t = useTestApp();

async function fleetVersion(organisationId: number) {
  const row = await t.db
    .selectFrom('organisations')
    .select('fleet_version')
    .where('id', '=', organisationId)
    .executeTakeFirstOrThrow();
  return Number(row.fleet_version);
}

describe('organisations.fleet_version (database triggers)', () => {
  it('moves on every insert, update and delete of addresses, rooms and devices, and only its own', async () => {
    const org = await buildOrganisation(t.db);
    const other = await buildOrganisation(t.db);
    const otherBefore = await fleetVersion(other.organisationId);
    const steps: [string, () => Promise<unknown>][] = [];
    let addressId = 0;
    let roomId = 0;
    let deviceId = 0;
    steps.push([
      'address insert',
      async () => (addressId = (await buildAddress(t.db, org.organisationId)).id),
    ]);
    steps.push([
      'room insert',
      async () => (roomId = (await buildRoom(t.db, org.organisationId, { addressId })).id),
    ]);
    steps.push([
      'device insert',
      async () => (deviceId = (await buildDevice(t.db, org.organisationId, { room_id: roomId })).id),
    ]);
    steps.push([
      'address update',
      () => t.db.updateTable('addresses').set({ city: 'Kazan' }).where('id', '=', addressId).execute(),
    ]);
    steps.push([
      'room update',
      () => t.db.updateTable('rooms').set({ name: 'Hall' }).where('id', '=', roomId).execute(),
    ]);
    steps.push([
      'device update',
      () => t.db.updateTable('devices').set({ notes: 'x' }).where('id', '=', deviceId).execute(),
    ]);
    steps.push(['device delete', () => t.db.deleteFrom('devices').where('id', '=', deviceId).execute()]);
    steps.push(['room delete', () => t.db.deleteFrom('rooms').where('id', '=', roomId).execute()]);
    steps.push(['address delete', () => t.db.deleteFrom('addresses').where('id', '=', addressId).execute()]);
    for (const [name, step] of steps) {
      const before = await fleetVersion(org.organisationId);
      await step();
      expect(await fleetVersion(org.organisationId), name).toBeGreaterThan(before);
    }
    expect(await fleetVersion(other.organisationId)).toBe(otherBefore);
  });
});

describe('fleet lists answered from kept bytes', () => {
  async function signedIn() {
    const org = await buildOrganisation(t.db);
    const client = new TestClient(t.app);
    await client.login(org.admin.email, org.admin.password);
    return { org, client };
  }
  const names = async (client: TestClient, url: string) =>
    (await client.get(url)).json<{ data: { name: string }[] }>().data.map((row) => row.name);

  it('shows every change in the very next answer, whoever made it', async () => {
    const { org, client } = await signedIn();
    const room = await buildRoom(t.db, org.organisationId, { name: 'Kitchen' });
    const device = await buildDevice(t.db, org.organisationId, { name: 'Oven', room_id: room.id });
    for (const url of ['/api/devices/', '/api/devices/?page=1']) {
      expect(await names(client, url)).toEqual(['Oven']);
      expect(await names(client, url)).toEqual(['Oven']);
    }
    expect(await names(client, '/api/rooms/')).toEqual(['Kitchen']);

    // Written past the API, as another process or the operator CLI would.
    await t.db.updateTable('devices').set({ name: 'Oven 2' }).where('id', '=', device.id).execute();
    expect(await names(client, '/api/devices/')).toEqual(['Oven 2']);
    expect(await names(client, '/api/devices/?page=1')).toEqual(['Oven 2']);

    // A room moved to another address changes the devices' address_id.
    const address = await buildAddress(t.db, org.organisationId);
    await t.db.updateTable('rooms').set({ address_id: address.id }).where('id', '=', room.id).execute();
    const moved = (await client.get('/api/devices/')).json<{ data: { address_id: number }[] }>().data;
    expect(moved.map((row) => row.address_id)).toEqual([address.id]);

    // And through the API itself.
    expect((await client.delete(`/api/devices/${device.id}`)).statusCode).toBe(204);
    expect(await names(client, '/api/devices/')).toEqual([]);
  });

  it("never answers one organisation with another's list, at the same address", async () => {
    const first = await signedIn();
    const second = await signedIn();
    await buildDevice(t.db, first.org.organisationId, { name: 'First oven' });
    await buildDevice(t.db, second.org.organisationId, { name: 'Second oven' });
    expect(await names(first.client, '/api/devices/')).toEqual(['First oven']);
    expect(await names(second.client, '/api/devices/')).toEqual(['Second oven']);
    expect(await names(first.client, '/api/devices/')).toEqual(['First oven']);
  });

  it('sends the same JSON as brotli, gzip or plain, as the client accepts', async () => {
    const { org, client } = await signedIn();
    for (let i = 0; i < 20; i += 1) await buildDevice(t.db, org.organisationId, { name: `Oven ${i}` });
    const plain = await client.get('/api/devices/', { 'accept-encoding': 'identity' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers['content-type']).toBe('application/json; charset=utf-8');
    const br = await client.get('/api/devices/', { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toContain('accept-encoding');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(plain.body);
    const gzip = await client.get('/api/devices/', { 'accept-encoding': 'gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).toString()).toBe(plain.body);
    expect(plain.json<{ data: unknown[] }>().data).toHaveLength(20);
  });
});

describe('KeptAnswers', () => {
  const user = (organisationId: number, fleet: number, others: Partial<CurrentUser['versions']> = {}) =>
    ({
      id: 1,
      organisationId,
      versions: {
        fleet,
        groups: 0,
        events: 0,
        notifications: 0,
        recipes: 0,
        complaints: 0,
        people: 0,
        ...others,
      },
    }) as CurrentUser;

  /** A bare Fastify whose one route answers through `answers`, counting the builds. */
  async function harness(answers: KeptAnswers) {
    const app = Fastify();
    let builds = 0;
    app.get('/list', async (request, reply) => {
      const { org, version, size, fresh, stale } = request.query as Record<string, string | undefined>;
      // What the route read beside the URL (the dashboard's events version), not part of the URL.
      const variant = request.headers['x-variant'] as string | undefined;
      return answers.send(
        request,
        reply,
        user(Number(org), Number(version)),
        async () => {
          builds += 1;
          return { data: 'x'.repeat(Number(size ?? 10)), build: builds };
        },
        {
          ...(fresh ? { freshForMs: Number(fresh) } : {}),
          ...(stale ? { staleForMs: Number(stale) } : {}),
          ...(variant ? { variant } : {}),
        },
      );
    });
    await app.ready();
    const get = async (
      org: number,
      version: number,
      size = 10,
      fresh?: number,
      variant?: string,
      stale?: number,
    ) =>
      (
        await app.inject({
          url: `/list?org=${org}&version=${version}&size=${size}${fresh ? `&fresh=${fresh}` : ''}${stale ? `&stale=${stale}` : ''}`,
          ...(variant ? { headers: { 'x-variant': variant } } : {}),
        })
      ).json<{ build: number }>().build;
    return { get, builds: () => builds, close: () => app.close() };
  }

  it('builds once per version, answers an older version fresh without keeping it, and forgets old versions', async () => {
    const answers = new KeptAnswers();
    const h = await harness(answers);
    try {
      expect(await h.get(1, 5)).toBe(1);
      expect(await h.get(1, 5)).toBe(1);
      // A request that read version 4 began before a change this process has already seen.
      expect(await h.get(1, 4)).toBe(2);
      expect(await h.get(1, 5)).toBe(1);
      expect(await h.get(1, 6)).toBe(3);
      expect(await h.get(1, 6)).toBe(3);
      expect(answers.size).toBeLessThan(200); // version 5's answer is gone
    } finally {
      await h.close();
    }
  });

  it('keeps an answer with live fields for one window of freshForMs at most, then drops it', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const answers = new KeptAnswers();
    const h = await harness(answers);
    try {
      vi.setSystemTime(1_000_000);
      expect(await h.get(1, 1, 10, 15_000)).toBe(1);
      vi.setSystemTime(1_000_000 + 4_000);
      expect(await h.get(1, 1, 10, 15_000)).toBe(1); // same window
      vi.setSystemTime(1_000_000 + 15_000);
      // The next window: answered with the last one while its own is built, then with its own.
      expect(await h.get(1, 1, 10, 15_000)).toBe(1);
      await vi.waitFor(async () => expect(await h.get(1, 1, 10, 15_000)).toBe(2));
      expect(h.builds()).toBe(2);
      expect(answers.size).toBeLessThan(100); // only the newest window's answer is kept
      // A window later than the next one waits for its own answer.
      vi.setSystemTime(1_000_000 + 45_000);
      expect(await h.get(1, 1, 10, 15_000)).toBe(3);
    } finally {
      vi.useRealTimers();
      await h.close();
    }
  });

  it('answers with an answer up to staleForMs past its window while the next is built, and waits beyond', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const answers = new KeptAnswers();
    const h = await harness(answers);
    const get = () => h.get(1, 1, 10, 5_000, undefined, 60_000);
    try {
      vi.setSystemTime(2_000_000);
      expect(await get()).toBe(1);
      // Ten windows later, within a minute of its window: sent while the next is built.
      vi.setSystemTime(2_050_000);
      expect(await get()).toBe(1);
      await vi.waitFor(async () => expect(await get()).toBe(2));
      // More than a minute past that answer's window: the request waits for its own.
      vi.setSystemTime(2_050_000 + 70_000);
      expect(await get()).toBe(3);
      // Without staleForMs, one window only (the test above): ten windows on is too late.
      vi.setSystemTime(2_200_000);
      expect(await h.get(1, 1, 10, 5_000)).toBe(4);
    } finally {
      vi.useRealTimers();
      await h.close();
    }
  });

  it("makes the next window's answer in the forms the last one was asked in before it replaces it", async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const answers = new KeptAnswers();
    const app = Fastify({ logger: false });
    let builds = 0;
    app.get('/list', async (request, reply) =>
      answers.send(
        request,
        reply,
        user(1, 1),
        async () => ({ build: (builds += 1), data: 'Печь '.repeat(2000) }),
        { freshForMs: 5_000 },
      ),
    );
    await app.ready();
    const get = async (encoding?: string) => {
      const res = await app.inject({
        url: '/list',
        headers: encoding ? { 'accept-encoding': encoding } : {},
      });
      const body =
        res.headers['content-encoding'] === 'br' ? brotliDecompressSync(res.rawPayload) : res.rawPayload;
      return JSON.parse(body.toString()) as { build: number };
    };
    try {
      vi.setSystemTime(7_000_000);
      expect((await get('br')).build).toBe(1);
      const json = Buffer.byteLength(JSON.stringify({ build: 1, data: 'Печь '.repeat(2000) }));
      expect(answers.size).toBeGreaterThan(json); // the JSON and its brotli form
      // The window turns; the next answer is built and, before anyone gets it, compressed.
      vi.setSystemTime(7_005_000);
      expect((await get()).build).toBe(1);
      await vi.waitFor(async () => expect((await get()).build).toBe(2));
      expect(answers.size).toBeGreaterThan(json);
    } finally {
      vi.useRealTimers();
      await app.close();
    }
  });

  it("answers with the last window's answer while the next is built, but waits for a new version or variant", async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const answers = new KeptAnswers();
    const app = Fastify({ logger: false });
    let builds = 0;
    let release: () => void = () => undefined;
    let gate: Promise<void> = Promise.resolve();
    /** Holds the builds from now until `release()`. */
    const hold = () => {
      gate = new Promise<void>((resolve) => (release = resolve));
    };
    let failNext = false;
    app.get('/stat', async (request, reply) => {
      const { version, variant } = request.query as Record<string, string>;
      return answers.send(
        request,
        reply,
        user(1, Number(version)),
        async () => {
          builds += 1;
          const build = builds;
          await gate;
          if (failNext) {
            failNext = false;
            throw new Error('database gone');
          }
          return { build };
        },
        { freshForMs: 5_000, variant },
      );
    });
    await app.ready();
    const get = async (version = 1, variant = 'a') =>
      (await app.inject(`/stat?version=${version}&variant=${variant}`)).json<{ build: number }>().build;
    try {
      vi.setSystemTime(5_000_000);
      expect(await get()).toBe(1);
      // The window turns while the next build is held: every request meanwhile gets build 1 at once.
      vi.setSystemTime(5_005_000);
      hold();
      expect(await Promise.all([get(), get(), get()])).toEqual([1, 1, 1]);
      expect(builds).toBe(2); // one build under way, not three
      release();
      await vi.waitFor(async () => expect(await get()).toBe(2));
      // A failed build in the background: the last answer still goes out, the next request builds again.
      vi.setSystemTime(5_010_000);
      hold();
      failNext = true;
      expect(await get()).toBe(2);
      release();
      await vi.waitFor(() => expect(failNext).toBe(false));
      await vi.waitFor(async () => expect(await get()).toBe(4));
      // Another variant (a device event) or version (a fleet change) is never answered from the last one.
      hold();
      const variantAnswer = get(1, 'b');
      const versionAnswer = get(2, 'a');
      await vi.waitFor(() => expect(builds).toBe(6));
      release();
      expect(await Promise.all([variantAnswer, versionAnswer])).toEqual([5, 6]);
    } finally {
      vi.useRealTimers();
      await app.close();
    }
  });

  it('keeps one answer per URL: a new variant replaces the one before instead of piling up', async () => {
    const answers = new KeptAnswers();
    const h = await harness(answers);
    try {
      expect(await h.get(1, 1, 1000, undefined, 'events-1')).toBe(1);
      const one = answers.size;
      // Every device event moves the dashboard's variant: a hundred of them keep one answer.
      for (let event = 2; event <= 100; event += 1) {
        expect(await h.get(1, 1, 1000, undefined, `events-${event}`)).toBe(event);
      }
      expect(answers.size).toBeLessThan(one + 10); // one answer (its build number is longer), not a hundred
      expect(await h.get(1, 1, 1000, undefined, 'events-100')).toBe(100);
      // Another URL of the same organisation is an answer of its own.
      expect(await h.get(1, 1, 500, undefined, 'events-100')).toBe(101);
      expect(answers.size).toBeGreaterThan(one);
    } finally {
      await h.close();
    }
  });

  it('builds an answer once when requests ask for it while it is being built', async () => {
    const answers = new KeptAnswers();
    const h = await harness(answers);
    try {
      const all = await Promise.all([h.get(1, 1, 100), h.get(1, 1, 100), h.get(1, 1, 100)]);
      expect(all).toEqual([1, 1, 1]); // one build, its answer sent to all three
      expect(h.builds()).toBe(1);
      const kept = answers.size;
      expect(kept).toBeLessThan(200); // one answer of ~120 bytes
      expect(await h.get(1, 1, 100)).toBe(1);
      // Another version asked at the same moment is another build.
      expect(await Promise.all([h.get(1, 2, 100), h.get(1, 2, 100)])).toEqual([2, 2]);
      expect(answers.size).toBe(kept);
    } finally {
      await h.close();
    }
  });

  it('compresses an answer once per encoding, however many requests ask for it at once', async () => {
    const answers = new KeptAnswers();
    const app = Fastify();
    app.get('/list', async (request, reply) =>
      answers.send(request, reply, user(1, 1), async () => ({ data: 'kontrol '.repeat(2000) })),
    );
    await app.ready();
    try {
      const asks = (encoding: string) =>
        Promise.all(
          [1, 2, 3].map(() => app.inject({ url: '/list', headers: { 'accept-encoding': encoding } })),
        );
      const json = (await app.inject('/list')).rawPayload;
      const plainSize = answers.size;
      expect(plainSize).toBe(json.length);
      const br = await asks('br');
      for (const response of br) {
        expect(response.headers['content-encoding']).toBe('br');
        expect(brotliDecompressSync(response.rawPayload).equals(json)).toBe(true);
      }
      // One compressed form kept beside the JSON, however many requests asked for it at once.
      const brBytes = Math.max(...br.map((response) => response.rawPayload.length));
      expect(answers.size).toBe(plainSize + brBytes);
      const gz = await asks('gzip');
      for (const response of gz) expect(gunzipSync(response.rawPayload).equals(json)).toBe(true);
      const gzBytes = Math.max(...gz.map((response) => response.rawPayload.length));
      expect(answers.size).toBe(plainSize + brBytes + gzBytes);
    } finally {
      await app.close();
    }
  });

  it('lets every waiting request fail with a build that fails, and builds again on the next', async () => {
    const answers = new KeptAnswers();
    const app = Fastify();
    let builds = 0;
    let asked = 0;
    let bothAsked: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (bothAsked = resolve));
    app.get('/list', async (request, reply) => {
      const sent = answers.send(request, reply, user(1, 1), async () => {
        builds += 1;
        await gate; // the first build is still under way when the second request asks
        if (builds === 1) throw new Error('database gone');
        return { build: builds };
      });
      asked += 1;
      if (asked === 2) bothAsked();
      return sent;
    });
    await app.ready();
    try {
      const failed = await Promise.all([app.inject('/list'), app.inject('/list')]);
      expect(failed.map((response) => response.statusCode)).toEqual([500, 500]);
      expect(builds).toBe(1);
      const next = await app.inject('/list');
      expect(next.json()).toEqual({ build: 2 });
    } finally {
      await app.close();
    }
  });

  it('drops the answer a newer one supersedes even when the newer one is too big to keep', async () => {
    const answers = new KeptAnswers(1000);
    const app = Fastify();
    let builds = 0;
    app.get('/list', async (request, reply) =>
      answers.send(
        request,
        reply,
        user(1, 1),
        async () => {
          builds += 1;
          // The first answer is small; the next (another variant) is past a quarter of the budget.
          return { data: 'x'.repeat(builds === 1 ? 50 : 400) };
        },
        { variant: request.headers['x-variant'] as string },
      ),
    );
    await app.ready();
    try {
      await app.inject({ url: '/list', headers: { 'x-variant': 'a' } });
      expect(answers.size).toBeGreaterThan(0);
      await app.inject({ url: '/list', headers: { 'x-variant': 'b' } });
      expect(answers.size).toBe(0); // neither kept: the old one is out of date, the new one too big
    } finally {
      await app.close();
    }
  });

  it('keeps at most its byte budget, dropping the least recently used first', async () => {
    const answers = new KeptAnswers(1000);
    const h = await harness(answers);
    try {
      // Answers of about 220 bytes each: four fit in 1000.
      expect(await h.get(1, 1, 200)).toBe(1);
      expect(await h.get(2, 1, 200)).toBe(2);
      expect(await h.get(1, 1, 200)).toBe(1); // 1 is now more recently used than 2
      expect(await h.get(3, 1, 200)).toBe(3);
      expect(await h.get(4, 1, 200)).toBe(4);
      expect(await h.get(5, 1, 200)).toBe(5); // over 1000 bytes: 2 goes
      expect(answers.size).toBeLessThanOrEqual(1000);
      expect(await h.get(1, 1, 200)).toBe(1);
      expect(await h.get(3, 1, 200)).toBe(3);
      expect(await h.get(2, 1, 200)).toBe(6);
      // An answer larger than a quarter of the budget is sent but never kept.
      expect(await h.get(6, 1, 300)).toBe(7);
      expect(await h.get(6, 1, 300)).toBe(8);
    } finally {
      await h.close();
    }
  });

  it('keeps a part per organisation and name for its fleet version and window, and reads afresh otherwise', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const answers = new KeptAnswers();
    let reads = 0;
    const read = () => Promise.resolve(++reads);
    try {
      vi.setSystemTime(1_000_000);
      expect(await answers.part(user(1, 5), 'devices', 5_000, read)).toBe(1);
      expect(await answers.part(user(1, 5), 'devices', 5_000, read)).toBe(1);
      // Another name and another organisation are parts of their own.
      expect(await answers.part(user(1, 5), 'other', 5_000, read)).toBe(2);
      expect(await answers.part(user(2, 5), 'devices', 5_000, read)).toBe(3);
      // A request that read an older version reads afresh and keeps nothing.
      expect(await answers.part(user(1, 4), 'devices', 5_000, read)).toBe(4);
      expect(await answers.part(user(1, 5), 'devices', 5_000, read)).toBe(1);
      // A newer version, then the next window, read again.
      expect(await answers.part(user(1, 6), 'devices', 5_000, read)).toBe(5);
      expect(await answers.part(user(1, 6), 'other', 5_000, read)).toBe(6); // version 5's went with it
      vi.setSystemTime(1_000_000 + 4_999);
      expect(await answers.part(user(1, 6), 'devices', 5_000, read)).toBe(5);
      vi.setSystemTime(1_000_000 + 5_000);
      expect(await answers.part(user(1, 6), 'devices', 5_000, read)).toBe(7);
      // A failed read is not kept: the next request reads again.
      await expect(
        answers.part(user(3, 1), 'devices', 5_000, () => Promise.reject(new Error('down'))),
      ).rejects.toThrow('down');
      expect(await answers.part(user(3, 1), 'devices', 5_000, read)).toBe(8);
    } finally {
      vi.useRealTimers();
    }
  });

  it('keys an answer by the counters of what it was built from, and only a newer one of those drops it', async () => {
    const answers = new KeptAnswers();
    const app = Fastify();
    let builds = 0;
    app.get('/people', async (request, reply) => {
      // What the request read with its session, not part of the URL.
      const read = (name: string) => Number(request.headers[`x-${name}`]);
      const asked = {
        ...user(1, read('fleet'), { people: read('people') }),
        id: read('user'),
      };
      return answers.send(
        request,
        reply,
        asked,
        async () => {
          builds += 1;
          return { build: builds };
        },
        { from: ['people'], perUser: read('own') === 1 },
      );
    });
    await app.ready();
    const get = async (fleet: number, people: number, own?: { user: number }) =>
      (
        await app.inject({
          url: '/people',
          headers: {
            'x-fleet': String(fleet),
            'x-people': String(people),
            'x-user': String(own?.user ?? 1),
            'x-own': own ? '1' : '0',
          },
        })
      ).json<{ build: number }>().build;
    try {
      expect(await get(1, 1)).toBe(1);
      // The fleet is not what it was built from: its counter moving changes nothing.
      expect(await get(2, 1)).toBe(1);
      expect(await get(3, 1)).toBe(1);
      expect(answers.size).toBeGreaterThan(0);
      expect(await get(3, 2)).toBe(2);
      expect(await get(3, 2)).toBe(2);
      // An older people counter than one seen: built afresh, not kept.
      expect(await get(3, 1)).toBe(3);
      expect(await get(3, 2)).toBe(2);
      // A user's own answer: one per user.
      expect(await get(3, 2, { user: 7 })).toBe(4);
      expect(await get(3, 2, { user: 8 })).toBe(5);
      expect(await get(3, 2, { user: 7 })).toBe(4);
    } finally {
      await app.close();
    }
  });

  it('keeps a part for the counters it was read with: another kind moving keeps it', async () => {
    const answers = new KeptAnswers();
    let reads = 0;
    const read = async () => (reads += 1);
    expect(await answers.part(user(1, 1, { events: 1 }), 'open', 5_000, read, ['events'])).toBe(1);
    expect(await answers.part(user(1, 2, { events: 1 }), 'open', 5_000, read, ['events'])).toBe(1);
    expect(await answers.part(user(1, 2, { events: 2 }), 'open', 5_000, read, ['events'])).toBe(2);
  });
});
