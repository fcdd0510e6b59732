import { describe, expect, it } from 'vitest';
import type { GatewayDevice } from '../devices/device-directory.js';
import { DeviceLimitError, DeviceLimiter, FLUSH_AFTER_MS, REMEMBER_REFUSED_MS } from './device-limiter.js';

const device = (id = 1): GatewayDevice => ({
  id,
  organisationId: 7,
  controllerId: `KC-${id}`,
  credentialHash: 'ab',
  timeZone: 'Europe/Moscow',
  idleCurrentA: 1,
  reports: new Set(),
});

const SETTINGS = {
  maxConnections: 2,
  maxInFlight: 2,
  samplesPerSecond: 10,
  burstSamples: 100,
  samplesPerDay: 1_000,
};
const NOON = Date.UTC(2026, 10, 27, 12);

function limiterAt(start = NOON, settings = SETTINGS) {
  const clock = { now: start };
  const refused: string[] = [];
  const limiter = new DeviceLimiter(
    settings,
    (reason) => refused.push(reason),
    () => clock.now,
  );
  return { limiter, clock, refused };
}

function refusal(action: () => unknown): DeviceLimitError {
  try {
    action();
  } catch (error) {
    if (error instanceof DeviceLimitError) return error;
    throw error;
  }
  throw new Error('not refused');
}

describe('DeviceLimiter', () => {
  it('lets a burst through at once, then the rate, and says when to try again', () => {
    const { limiter, clock, refused } = limiterAt();
    limiter.take(device(), 60);
    limiter.take(device(), 40);
    const error = refusal(() => limiter.take(device(), 20));
    expect(error.reason).toBe('rate');
    expect(error.retryAfterS).toBe(2); // 20 samples at 10 a second
    clock.now += 2_000;
    limiter.take(device(), 20);
    expect(refused).toEqual(['rate']);
    // Another device has a bucket of its own.
    limiter.take(device(2), 100);
  });

  it('refuses before reading while the bucket does not hold the message last refused for the rate', () => {
    const { limiter, clock } = limiterAt();
    limiter.take(device(), 100);
    refusal(() => limiter.take(device(), 50));
    clock.now += 1_000; // 10 in the bucket: enough for a small message, not for the one refused
    expect(refusal(() => limiter.precheck(device())).retryAfterS).toBe(4);
    expect(refusal(() => limiter.openHttp(device())).reason).toBe('rate');
    clock.now += 4_000;
    limiter.precheck(device());
    limiter.take(device(), 50);
    clock.now += 100;
    limiter.precheck(device()); // it passed: nothing is owed any more, one sample will do
  });

  it('answers a credential refused lately without a lookup, while its device is over its limits, for 15 s', () => {
    const { limiter, clock, refused } = limiterAt();
    expect(limiter.refusedAgain('hash-1')).toBeUndefined();
    limiter.take(device(), 100);
    limiter.rememberRefused('hash-1', device());
    expect(limiter.refusedAgain('hash-1')?.reason).toBe('rate');
    expect(limiter.refusedAgain('hash-2')).toBeUndefined();
    clock.now += 1_000; // 10 samples in the bucket: no longer over the rate
    expect(limiter.refusedAgain('hash-1')).toBeUndefined();
    limiter.take(device(), 10);
    clock.now += REMEMBER_REFUSED_MS;
    expect(limiter.refusedAgain('hash-1')).toBeUndefined(); // forgotten: looked up again
    expect(refused).toEqual(['rate']);
  });

  it('passes a message larger than the bucket only when the bucket is full', () => {
    const { limiter, clock } = limiterAt();
    limiter.take(device(), 1);
    expect(refusal(() => limiter.take(device(), 500)).reason).toBe('rate');
    clock.now += 1_000;
    limiter.take(device(), 500); // the bucket is full again: it goes into debt
    expect(refusal(() => limiter.take(device(), 1)).retryAfterS).toBe(41);
  });

  it('refuses past the day until the next UTC day, whatever the bucket holds', () => {
    const { limiter, clock } = limiterAt(Date.UTC(2026, 10, 27, 23, 50));
    for (let i = 0; i < 10; i += 1) {
      limiter.take(device(), 100);
      clock.now += 10_000;
    }
    const error = refusal(() => limiter.take(device(), 1));
    expect(error.reason).toBe('day');
    expect(error.retryAfterS).toBe(Math.ceil((Date.UTC(2026, 10, 28) - clock.now) / 1000));
    clock.now = Date.UTC(2026, 10, 28, 0, 0, 1);
    limiter.take(device(), 100);
  });

  it('counts HTTP requests as connections and messages, an MQTT connection once, and frees them once', () => {
    const { limiter, refused } = limiterAt();
    const endMqtt = limiter.openMqtt(device());
    expect(endMqtt).toBeDefined();
    const first = limiter.openHttp(device());
    expect(refusal(() => limiter.openHttp(device())).reason).toBe('connections');
    first();
    first(); // twice: freed once
    const second = limiter.openHttp(device());
    expect(refusal(() => limiter.openHttp(device())).reason).toBe('connections');
    endMqtt?.();
    const third = limiter.openHttp(device());
    // Two HTTP requests hold both connections: an MQTT connection is refused.
    expect(limiter.openMqtt(device())).toBeUndefined();
    second();
    third();
    expect(refused).toEqual(['connections', 'connections', 'connections']);
  });

  it('makes MQTT messages over the in-flight limit wait their turn, and refuses HTTP ones', async () => {
    const { limiter, refused } = limiterAt(NOON, { ...SETTINGS, maxConnections: 10 });
    const a = await limiter.openMqttMessage(device());
    const b = await limiter.openMqttMessage(device());
    let third: (() => void) | undefined;
    const waiting = limiter.openMqttMessage(device()).then((end) => (third = end));
    await Promise.resolve();
    expect(third).toBeUndefined();
    expect(refusal(() => limiter.openHttp(device())).reason).toBe('in_flight');
    a();
    await waiting;
    expect(third).toBeDefined();
    b();
    third?.();
    expect(refused).toEqual(['in_flight', 'in_flight']);
  });

  it('writes refusals at once, samples in steps of 1 % of the day or after five minutes, and gives back what failed', () => {
    const { limiter, clock } = limiterAt();
    limiter.take(device(), 5);
    expect(limiter.dueDeltas()).toEqual([]); // under the step (10 samples)
    refusal(() => limiter.take(device(), 500));
    const due = limiter.dueDeltas();
    expect(due).toEqual([
      {
        deviceId: 1,
        organisationId: 7,
        day: '2026-11-27',
        samples: 5,
        refused: 1,
        lastRefusedTs: NOON,
        lastReason: 'rate',
      },
    ]);
    expect(limiter.dueDeltas()).toEqual([]);
    limiter.restore(due);
    expect(limiter.dueDeltas()).toHaveLength(1);

    limiter.take(device(2), 3);
    expect(limiter.dueDeltas()).toEqual([]);
    clock.now += FLUSH_AFTER_MS;
    expect(limiter.dueDeltas()).toMatchObject([{ deviceId: 2, samples: 3, refused: 0 }]);
  });

  it('counts the day from what every process wrote, and takes what other processes took off the bucket', () => {
    const { limiter } = limiterAt();
    limiter.take(device(), 1);
    expect(limiter.unknownDays()).toEqual([{ deviceId: 1, day: '2026-11-27' }]);
    limiter.stored(1, '2026-11-27', 990, 0); // read: the other processes took 990 today
    expect(limiter.unknownDays()).toEqual([]);
    limiter.take(device(), 9);
    expect(refusal(() => limiter.take(device(), 1)).reason).toBe('day');

    const other = limiterAt();
    other.limiter.take(device(), 10);
    other.limiter.stored(1, '2026-11-27', 0, 0);
    const [delta] = other.limiter.dueDeltas(true);
    // This process wrote its 10; the total says 80 more came through other processes.
    other.limiter.stored(1, '2026-11-27', 90, delta?.samples ?? 0);
    expect(refusal(() => other.limiter.take(device(), 20)).reason).toBe('rate'); // 100 - 10 - 80 = 10 left
    other.limiter.take(device(), 10);
  });
});
