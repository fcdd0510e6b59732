/**
 * A stand-in for the browser's EventSource (the test DOM has none): the console's live stream opens it,
 * and a test sends it server events with {@link FakeEventSource.emit}.
 */
export class FakeEventSource {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSED = 2;
  static instances: FakeEventSource[] = [];
  readyState = FakeEventSource.OPEN;
  private readonly listeners = new Map<string, Set<(event: MessageEvent<string>) => void>>();

  constructor(readonly url: string) {
    FakeEventSource.instances.push(this);
  }

  addEventListener(type: string, listener: (event: MessageEvent<string>) => void) {
    const set = this.listeners.get(type) ?? new Set();
    set.add(listener);
    this.listeners.set(type, set);
  }

  removeEventListener(type: string, listener: (event: MessageEvent<string>) => void) {
    this.listeners.get(type)?.delete(listener);
  }

  close() {
    this.readyState = FakeEventSource.CLOSED;
  }

  /** Delivers a server event `type` with `data` (JSON) to the listeners. */
  emit(type: string, data: unknown) {
    const event = new MessageEvent<string>(type, { data: JSON.stringify(data) });
    for (const listener of this.listeners.get(type) ?? []) listener(event);
  }

  /** The stream the console has open now. */
  static current(): FakeEventSource {
    const open = FakeEventSource.instances.filter((source) => source.readyState !== FakeEventSource.CLOSED);
    const last = open.at(-1);
    if (!last) throw new Error('No live stream is open');
    return last;
  }
}
