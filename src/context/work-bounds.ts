import { RequestStoppedError, ResponseTooLargeError, type QueryTooComplexError } from '../domain/errors';
import { runInSlice } from '../lib/event-loop';

/**
 * What one request may still do. Its work stops when nobody waits for the answer any more (the
 * request's signal aborts: its deadline passed, or its caller went away) or when the answer grows
 * past `maxBytes`: the large texts that go into an answer (page bodies as markdown or as documents,
 * diffs) are counted as they are resolved, so that a too large answer is refused, not built. Every
 * check is a flag read; GraphQL fields, loaders and the long loops over pages check it.
 */
export class WorkBounds {
  /** Bytes of large text the answer holds so far. */
  bytes = 0;
  /** Why the work stopped, once it did: what a check throws. */
  stopped: RequestStoppedError | ResponseTooLargeError | QueryTooComplexError | null = null;

  constructor(
    readonly maxBytes: number,
    signal?: AbortSignal,
  ) {
    if (signal?.aborted) this.stopped = new RequestStoppedError();
    else signal?.addEventListener('abort', () => (this.stopped ??= new RequestStoppedError()), { once: true });
  }

  /** Stops the work for `reason` (the first reason stays), and throws it. */
  stop(reason: QueryTooComplexError): never {
    this.stopped ??= reason;
    throw this.stopped;
  }

  /** Throws why the work stopped, if it did. */
  check(): void {
    if (this.stopped) throw this.stopped;
  }

  /**
   * Counts `bytes` into the answer. False once the work has stopped, this count included: what
   * they measure must then be left out (GraphQL answers the reason alone, see src/graphql/work-bounds.ts).
   */
  admit(bytes: number): boolean {
    if (this.stopped) return false;
    this.bytes += bytes;
    if (this.bytes > this.maxBytes) this.stopped = new ResponseTooLargeError(this.maxBytes);
    return !this.stopped;
  }

  /** Counts `text` into the answer and returns it; throws why the work stopped, if it did. */
  count<T extends string>(text: T): T {
    this.admit(Buffer.byteLength(text));
    this.check();
    return text;
  }

  /**
   * Runs one piece of long synchronous work (a page rendered) in a slice of the event loop (see
   * src/lib/event-loop.ts), so that timers, the deadline's included, fire between pieces.
   */
  slice<T>(work: () => T): T | Promise<T> {
    return runInSlice(work);
  }

  /** Between two pieces of a long loop: waits for the next turn of the event loop when one is due, then checks. */
  checkpoint(): void | Promise<void> {
    return runInSlice(() => this.check());
  }
}
