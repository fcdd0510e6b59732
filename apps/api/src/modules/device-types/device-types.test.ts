import { DEVICE_TYPE_LABELS, DEVICE_TYPE_SLUGS, deviceTypeSchema, type DeviceType } from '@kontrol/contracts';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildOrganisation, buildUser } from '../../test/builders.js';
import { TestClient } from '../../test/http-client.js';
import { useTestApp } from '../../test/test-app.js';

const t = useTestApp();

async function signedIn() {
  const org = await buildOrganisation(t.db);
  const client = new TestClient(t.app);
  await client.login(org.admin.email, org.admin.password);
  return { org, client };
}

describe('GET /api/devices/types/', () => {
  it('answers {data: {data: [...]}}, every seeded type in display order, named in English', async () => {
    const { client } = await signedIn();
    const res = await client.get('/api/devices/types/');
    expect(res.statusCode).toBe(200);
    const body = res.json<{ data: { data: DeviceType[] } }>();
    expect(() =>
      z
        .object({ data: z.object({ data: z.array(deviceTypeSchema) }) })
        .strict()
        .parse(body),
    ).not.toThrow();
    const types = body.data.data;
    expect(types.map((type) => type.slug)).toEqual([...DEVICE_TYPE_SLUGS]);
    expect(types[0]).toMatchObject({
      slug: 'combi_oven',
      name: 'Combi oven',
      telemetry: ['current', 'temperature', 'core_temperature', 'humidity', 'door', 'state', 'wash'],
      wash_interval_hours: 24,
      program_capacity: 1000,
    });
    expect(types.find((type) => type.slug === 'refrigerator')).toMatchObject({
      name: 'Refrigerator',
      wash_interval_hours: null,
      program_capacity: null,
    });
  });

  it('names them in Russian when the request prefers it, and by default', async () => {
    const { client } = await signedIn();
    for (const language of ['ru', 'ru-RU,ru;q=0.9,en;q=0.8', 'de']) {
      const body = (await client.get('/api/devices/types/', { 'accept-language': language })).json<{
        data: { data: DeviceType[] };
      }>();
      expect(body.data.data[0]?.name).toBe('Пароконвектомат');
      expect(body.data.data.at(-1)?.name).toBe('Другое оборудование');
    }
  });

  it('names every type as DEVICE_TYPE_LABELS does in both languages (the console names types by slug)', async () => {
    const { client } = await signedIn();
    for (const locale of ['ru', 'en'] as const) {
      const body = (await client.get('/api/devices/types/', { 'accept-language': locale })).json<{
        data: { data: DeviceType[] };
      }>();
      expect(Object.fromEntries(body.data.data.map((type) => [type.slug, type.name]))).toEqual(
        Object.fromEntries(DEVICE_TYPE_SLUGS.map((slug) => [slug, DEVICE_TYPE_LABELS[slug][locale]])),
      );
    }
  });

  it('answers 403 without the devices module and 401 without a session', async () => {
    const { org } = await signedIn();
    const user = await buildUser(t.db, org.organisationId, { modules: ['addresses'] });
    const denied = new TestClient(t.app);
    await denied.login(user.email, user.password);
    expect((await denied.get('/api/devices/types/')).statusCode).toBe(403);
    const guest = await TestClient.visitor(t.app);
    expect((await guest.get('/api/devices/types/')).statusCode).toBe(401);
  });
});
