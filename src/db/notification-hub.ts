import type { Database } from './client';

/**
 * One LISTEN per channel per process, shared by every subscriber of it: a thousand open
 * subscriptions cost one connection's worth of listening, not a thousand. Each subscriber gets
 * its own queue, so a slow one never holds the others back.
 */
export class NotificationHub {
  private readonly channels = new Map<string, { subscribers: Set<(payload: string) => void>; unlisten: Promise<() => Promise<void>> }>();

  constructor(private readonly listen: Database['listen']) {}

  /**
   * Payloads NOTIFYed on the channel from now on, until `signal` aborts or the consumer calls
   * `return`. Hand-written rather than a generator: a generator asked to return while it waits
   * for the next payload would only stop after that payload came.
   */
  subscribe(channel: string, signal?: AbortSignal): AsyncIterableIterator<string> {
    const queue: string[] = [];
    let pending: ((result: IteratorResult<string>) => void) | null = null;
    let closed = false;
    const entry = this.channels.get(channel) ?? this.open(channel);
    const push = (payload: string) => {
      if (!pending) return void queue.push(payload);
      const deliver = pending;
      pending = null;
      deliver({ value: payload, done: false });
    };
    entry.subscribers.add(push);
    const close = async () => {
      if (closed) return;
      closed = true;
      signal?.removeEventListener('abort', onAbort);
      entry.subscribers.delete(push);
      pending?.({ value: undefined, done: true });
      pending = null;
      if (!entry.subscribers.size && this.channels.get(channel) === entry) {
        this.channels.delete(channel);
        await (await entry.unlisten)();
      }
    };
    const onAbort = () => void close();
    if (signal?.aborted) void close();
    else signal?.addEventListener('abort', onAbort, { once: true });
    return {
      [Symbol.asyncIterator]() {
        return this;
      },
      async next() {
        await entry.unlisten;
        if (queue.length) return { value: queue.shift()!, done: false };
        if (closed) return { value: undefined, done: true };
        return new Promise<IteratorResult<string>>((resolve) => (pending = resolve));
      },
      async return() {
        await close();
        return { value: undefined, done: true };
      },
    };
  }

  /** Subscribers of the channel right now, counted once their LISTEN is in place. */
  async subscribers(channel: string): Promise<number> {
    const entry = this.channels.get(channel);
    if (!entry) return 0;
    await entry.unlisten;
    return entry.subscribers.size;
  }

  private open(channel: string) {
    const subscribers = new Set<(payload: string) => void>();
    const unlisten = this.listen(
      channel,
      (payload) => {
        for (const deliver of subscribers) deliver(payload);
      },
      () => {},
    );
    const entry = { subscribers, unlisten };
    this.channels.set(channel, entry);
    return entry;
  }
}
