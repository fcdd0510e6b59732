import type { LiveDevice } from '@kontrol/contracts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { liveStream } from './live-stream';

/** The browser's EventSource as far as the stream uses it: events dispatched by the test. */
class FakeEventSource extends EventTarget {
  static readonly CLOSED = 2;
  static opened: FakeEventSource[] = [];
  readyState = 1;
  constructor(readonly url: string) {
    super();
    FakeEventSource.opened.push(this);
  }
  close() {
    this.readyState = FakeEventSource.CLOSED;
  }
  emit(name: string, data: string) {
    this.dispatchEvent(new MessageEvent(name, { data }));
  }
}

const device = (id: number): LiveDevice => ({
  id,
  last_online: { last_utc: '2026-11-26T07:05:00.000Z' },
  work_start: { date: '2026-11-26', start: '07:02' },
  state: 'cooking',
  current: 12,
  temperature: 180,
});

describe('the live stream', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    FakeEventSource.opened = [];
  });

  it('hands messages on in the order they came, also while its schemas are still loading, and drops unreadable ones', async () => {
    vi.stubGlobal('EventSource', FakeEventSource);
    const received: number[][] = [];
    const unsubscribe = liveStream.subscribe({
      onDevices: (devices) => received.push(devices.map((d) => d.id)),
    });
    await vi.waitFor(() => expect(FakeEventSource.opened).toHaveLength(1));
    const source = FakeEventSource.opened[0];
    // All sent at once, before the schemas' module has loaded (it loads with the first message).
    source?.emit('devices', JSON.stringify({ data: [device(1)] }));
    source?.emit('devices', 'not json');
    source?.emit('devices', JSON.stringify({ data: [{ id: 'two' }] }));
    source?.emit('devices', JSON.stringify({ data: [device(3), device(4)] }));

    await vi.waitFor(() => expect(received).toHaveLength(2));
    expect(received).toEqual([[1], [3, 4]]);
    unsubscribe();
  });
});
