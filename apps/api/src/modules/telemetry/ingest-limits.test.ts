import { Agent } from 'node:http';
import type { DeviceLimits, Notification } from '@kontrol/contracts';
import { DeviceLimiter, UsageRecorder } from '@kontrol/gateway';
import {
  connectDevice,
  cookingSample,
  cookingSamples,
  listenOnce,
  postTelemetry,
  storedCount,
  type IngestAnswer,
} from '@kontrol/gateway/testing';
import type { MqttClient } from 'mqtt';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildOrganisation, buildSmartDevice } from '../../test/builders.js';
import { TestClient } from '../../test/http-client.js';
import { useTestApp, type TestContext } from '../../test/test-app.js';

/**
 * The device limits (docs/device-protocol.md, "Limits") through the real doors of the API and its
 * gateway: four uploads held open refuse a fifth as one connection too many; then a flood from one
 * credential over 8 HTTP connections and over MQTT at once stores no more than the limits allow,
 * gets 429 with Retry-After (HTTP) or no PUBACK (MQTT), while another organisation's device is
 * served; the device's limits page shows it, and the organisation is told once a day, whatever
 * restarts. The limits a gateway process applies alone are tested in
 * apps/gateway/src/limits/limits.test.ts.
 */

const MINUTE = 60_000;
const clients: MqttClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.endAsync(true)));
});

async function limitNotifications(t: TestContext, organisationId: number) {
  return t.db
    .selectFrom('notifications')
    .selectAll()
    .where('organisation_id', '=', organisationId)
    .where('kind', '=', 'device_limit')
    .execute();
}

async function connect(port: number, device: { controllerId: string; credential: string }, version: 4 | 5) {
  const client = await connectDevice(port, device, version);
  clients.push(client);
  return client;
}

describe('a flood from one credential, over HTTP and MQTT', () => {
  const LIMITS = { rate: 100, burst: 2_000, connections: 4 };
  const t = useTestApp({
    runsMqtt: true,
    env: {
      DEVICE_SAMPLES_PER_SECOND: String(LIMITS.rate),
      DEVICE_SAMPLES_BURST: String(LIMITS.burst),
      DEVICE_MAX_CONNECTIONS: String(LIMITS.connections),
      DEVICE_MAX_IN_FLIGHT: '16',
      DEVICE_SAMPLES_PER_DAY: '1000000',
    },
  });
  let port = 0;
  beforeAll(async () => {
    port = await listenOnce(t.app);
  });

  it('stores no more than the limits allow, answers 429 with Retry-After and drops the connection without PUBACK, while another organisation is served', async () => {
    const org = await buildOrganisation(t.db);
    const device = await buildSmartDevice(t.db, org.organisationId);
    const other = await buildOrganisation(t.db);
    const neighbour = await buildSmartDevice(t.db, other.organisationId);
    const brokerPort = t.gateway.broker?.port ?? 0;
    const agent = new Agent({ keepAlive: true, maxSockets: 8 });
    const answers: IngestAnswer[] = [];
    const mqttOutcomes = { acknowledged: 0, dropped: 0, refusedConnects: 0, reasonCodes: new Set<number>() };
    // One millisecond apart: however many messages the flood makes, none is in the future.
    let clock = Date.now() - 80 * MINUTE;
    const nextBatch = (count: number) => {
      const batch = Array.from({ length: count }, (_, k) => cookingSample(clock + k));
      clock += count;
      return batch;
    };

    const started = Date.now();
    // Uploads that have sent half their body hold every connection the credential may have, so one
    // more is refused as one too many, however busy the machine is. The probes send no samples, so
    // they take nothing from the rate.
    const held = Array.from({ length: LIMITS.connections }, () =>
      postTelemetry(port, new Agent(), device.credential, nextBatch(200), {}, 1_500),
    );
    let heldSettled = false;
    const heldDone = Promise.all(held).finally(() => (heldSettled = true));
    let oneTooMany: IngestAnswer | undefined;
    while (!oneTooMany && !heldSettled) {
      const probe = await postTelemetry(port, new Agent(), device.credential, []);
      if (probe.status === 429 && probe.body.reason === 'connections') oneTooMany = probe;
      else await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(oneTooMany, 'no upload was refused while four were held open').toBeDefined();
    answers.push(oneTooMany!, ...(await heldDone));

    const deadline = Date.now() + 2_500;
    const http = Array.from({ length: 8 }, async () => {
      while (Date.now() < deadline)
        answers.push(await postTelemetry(port, agent, device.credential, nextBatch(200), {}, 20));
    });
    const overMqtt = (async () => {
      while (Date.now() < deadline) {
        let client: MqttClient;
        try {
          client = await connect(brokerPort, device, 5);
        } catch (error) {
          // HTTP requests hold every connection the credential may have: "server unavailable" (0x88).
          expect(error).toMatchObject({ code: 0x88 });
          mqttOutcomes.refusedConnects += 1;
          await new Promise((resolve) => setTimeout(resolve, 10));
          continue;
        }
        client.on('packetreceive', (packet) => {
          if (packet.cmd === 'disconnect') mqttOutcomes.reasonCodes.add(packet.reasonCode ?? 0);
        });
        // mqtt.js keeps an unacknowledged message for the next connection: a close ends the wait.
        const closed = new Promise<'closed'>((resolve) => client.once('close', () => resolve('closed')));
        while (Date.now() < deadline && client.connected) {
          const message = JSON.stringify(nextBatch(200));
          const topic = `kontrol/v1/${device.controllerId}/telemetry`;
          const outcome = await Promise.race([client.publishAsync(topic, message, { qos: 1 }), closed]);
          if (outcome === 'closed') mqttOutcomes.dropped += 1;
          else mqttOutcomes.acknowledged += 1;
        }
        await client.endAsync(true);
      }
    })();
    // Meanwhile another organisation's device sends as usual.
    const neighbourAnswer = postTelemetry(
      port,
      new Agent(),
      neighbour.credential,
      cookingSamples(Date.now() - 10 * MINUTE, 10),
    );
    await Promise.all([...http, overMqtt]);
    const elapsedS = (Date.now() - started) / 1000;
    agent.destroy();

    const stored = await storedCount(t.db, device.id);
    expect(stored).toBeGreaterThanOrEqual(LIMITS.burst);
    expect(stored).toBeLessThanOrEqual(LIMITS.burst + LIMITS.rate * elapsedS);
    expect((await neighbourAnswer).status).toBe(202);
    expect(await storedCount(t.db, neighbour.id)).toBe(10);

    const refused = answers.filter((answer) => answer.status === 429);
    expect(answers.every((answer) => answer.status === 202 || answer.status === 429)).toBe(true);
    expect(new Set(refused.map((answer) => answer.body.reason))).toEqual(new Set(['connections', 'rate']));
    for (const answer of refused) expect(Number(answer.retryAfter)).toBeGreaterThanOrEqual(1);
    expect(refused.find((answer) => answer.body.reason === 'rate')?.body.message).toMatch(
      /^The device sends more than 100 samples per second on average \(at most 2 000 at once\)\. Try again in \d+ s\.$/,
    );
    expect(refused.find((answer) => answer.body.reason === 'connections')?.body.message).toBe(
      'Too many connections with this device credential at once (at most 4). Try again in 1 s.',
    );
    // Over MQTT, a message over the rate is not acknowledged: DISCONNECT 0x96, "message rate too high".
    expect(mqttOutcomes.dropped).toBeGreaterThanOrEqual(1);
    expect(mqttOutcomes.reasonCodes).toContain(0x96);
    expect(t.gateway.stats.limited.rate).toBeGreaterThanOrEqual(refused.length > 0 ? 1 : 0);
    expect(t.gateway.stats.limited.connections).toBeGreaterThanOrEqual(1);

    // The organisation is told once, in its admin's language, and the device's limits page shows it.
    // Everything: samples taken after the last refusal are not due yet (device-limiter.ts, dueDeltas).
    await t.gateway.usage.flush(true);
    const told = await limitNotifications(t, org.organisationId);
    expect(told).toHaveLength(1);
    expect(told[0]).toMatchObject({
      user_id: org.admin.id,
      device_id: device.id,
      severity: 'warning',
      title: 'The device sends more than its limit',
    });
    expect(told[0]?.body).toMatch(
      /: more than (100 samples per second|4 connections at once)\. Messages over the limit/,
    );
    expect(await limitNotifications(t, other.organisationId)).toEqual([]);

    const admin = new TestClient(t.app);
    await admin.login(org.admin.email, org.admin.password);
    const page = await admin.get(`/api/devices/${device.id}/limits`);
    expect(page.statusCode).toBe(200);
    const { data } = page.json<{ data: DeviceLimits }>();
    expect(data.limits).toEqual({
      connections: 4,
      in_flight: 16,
      samples_per_second: 100,
      burst_samples: 2_000,
      samples_per_day: 1_000_000,
    });
    expect(data.days).toHaveLength(1);
    expect(data.days[0]?.refused).toBeGreaterThanOrEqual(refused.length);
    expect(data.days[0]?.samples).toBe(stored);
    expect(['rate', 'connections']).toContain(data.days[0]?.last_reason);
    // Another organisation's device is not found.
    expect((await admin.get(`/api/devices/${neighbour.id}/limits`)).statusCode).toBe(404);
    const notified = await admin.get('/api/notifications?page=1');
    expect(notified.json<{ data: Notification[] }>().data.map((n) => n.kind)).toContain('device_limit');
  });

  it('tells the organisation once per device and day, across processes and restarts', async () => {
    const org = await buildOrganisation(t.db);
    const device = await buildSmartDevice(t.db, org.organisationId);
    const agent = new Agent({ keepAlive: true });
    const flood = async () => {
      let answer: IngestAnswer;
      do
        answer = await postTelemetry(
          port,
          agent,
          device.credential,
          cookingSamples(Date.now() - 70 * MINUTE, 1_000),
        );
      while (answer.status === 202);
      expect(answer.status).toBe(429);
    };
    await flood();
    await t.gateway.usage.flush();
    expect(await limitNotifications(t, org.organisationId)).toHaveLength(1);
    // Delivered as any notification is: e-mailed, with a link to the device's connection tab.
    await t.app.notifier.dispatch();
    const mails = await t.db
      .selectFrom('mail_outbox')
      .selectAll()
      .where('to_address', '=', org.admin.email)
      .execute();
    // The subject is fixed words (docs/security.md, "Invitations and names"); the text names it.
    expect(mails.map((mail) => mail.subject)).toEqual(['Kontrol: new notification (Warning)']);
    expect(mails[0]?.text_body).toContain('The device sends more than its limit');
    expect(mails[0]?.text_body).toContain(`/account/devices/${device.id}?tab=connection`);
    await flood();
    await t.gateway.usage.flush();

    // Another process (or this one after a restart): its own limiter, the same database.
    const restarted = new DeviceLimiter(t.gateway.limiter.settings);
    const recorder = new UsageRecorder({ db: t.db, limiter: restarted, log: t.app.log, everyMs: 0 });
    const gatewayDevice = await t.gateway.directory.byCredential(device.credential);
    if (!gatewayDevice) throw new Error('the device is not found by its credential');
    restarted.take(gatewayDevice, 2_000);
    expect(() => restarted.take(gatewayDevice, 1_000)).toThrow(/rate/);
    await recorder.close();

    expect(await limitNotifications(t, org.organisationId)).toHaveLength(1);
    const day = await t.db
      .selectFrom('device_ingest_days')
      .selectAll()
      .where('device_id', '=', device.id)
      .executeTakeFirstOrThrow();
    expect(Number(day.refused)).toBeGreaterThanOrEqual(3);
    expect(day.notified_at).not.toBeNull();
    agent.destroy();
  });
});
