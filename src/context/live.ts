import { DomainError, ServiceUnavailableError } from '../domain/errors';
import type { RequestContext } from './request-context';

/** What a watcher makes of one payload: the event to deliver, null to skip it, or 'end' once access is gone. */
export type Verdict<T> = T | null | 'end';

/**
 * Called for each payload heard on the channel. `renew` is called once the payload concerns the
 * subscriber: it makes the subscription's context current (see renewContext) and answers it, or
 * null when the caller is no longer authenticated.
 */
export type Judge<T> = (payload: string, renew: () => Promise<RequestContext | null>) => Promise<Verdict<T>>;

/** Refuses a subscription on a server that hears no notifications (the command line, most tests). */
export function assertLive(ctx: RequestContext): NonNullable<RequestContext['notifications']> {
  if (!ctx.notifications) throw new ServiceUnavailableError('Live updates are not available on this server');
  return ctx.notifications;
}

/**
 * Makes a long-lived context current again, in place. GraphQL executes every event of a
 * subscription with the one context it started with, so each event's fields read through it:
 * kept as it was, its loaders would answer what they cached at the first event (reactions,
 * authors...) and its authorizer what it decided then. The viewer, loaders, authorizer and bounds
 * of a context made afresh for the same caller replace them.
 */
export function renewContext(ctx: RequestContext, fresh: RequestContext): RequestContext {
  return Object.assign(ctx, { viewer: fresh.viewer, loaders: fresh.loaders, authz: fresh.authz, bounds: fresh.bounds });
}

/** Null for a domain refusal (hidden, missing, forbidden): what ends a subscriber's stream. */
export const refusedAsNull = <T>(read: Promise<T>): Promise<T | null> => read.catch((error: unknown) => (error instanceof DomainError ? null : Promise.reject(error)));

/**
 * What `judge` delivers of the payloads of `channel`, from every instance, until the subscriber
 * leaves or a verdict is 'end'. Hand-written rather than a generator, so that a subscriber who
 * leaves stops it at once, not at the next event. Events are judged one after the other, each once
 * the previous one was delivered: GraphQL asks for the next only then, so renewing the context
 * never changes it under an event being resolved.
 */
export function watchChannel<T>(ctx: RequestContext, channel: string, judge: Judge<T>, signal?: AbortSignal): AsyncIterableIterator<T> {
  const events = assertLive(ctx).subscribe(channel, signal)[Symbol.asyncIterator]();
  const renew = async (): Promise<RequestContext | null> => {
    if (!ctx.refresh) return ctx;
    const fresh = await ctx.refresh().catch(() => null);
    return fresh && renewContext(ctx, fresh);
  };
  const done = async (): Promise<IteratorResult<T>> => {
    await events.return?.();
    return { value: undefined, done: true };
  };
  // Once the subscriber left (`return`), a `next` still waiting never settles: yoga's stream is
  // cancelled by then, and an answer would make it write to a closed stream.
  let left = false;
  const iterator: AsyncIterableIterator<T> = {
    [Symbol.asyncIterator]: () => iterator,
    async next() {
      for (;;) {
        const next = await events.next();
        if (left) return new Promise<never>(() => {});
        if (next.done) return { value: undefined, done: true };
        const verdict = await judge(next.value, renew);
        if (verdict === 'end') return done();
        if (verdict !== null) return { value: verdict, done: false };
      }
    },
    return: () => {
      left = true;
      return done();
    },
  };
  return iterator;
}
