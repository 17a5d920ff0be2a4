import type { TestApp } from './clients';

/**
 * Wraps creations so that each gets a creation time strictly after the previous one: lists in
 * creation order then never see two rows of the same millisecond swap places.
 */
export function inCreationOrder(app: () => TestApp) {
  let last = 0;
  return async function created<T>(fn: () => Promise<T>): Promise<T> {
    const t = app();
    last = Math.max(Date.now(), last + 1);
    t.clock.now = new Date(last);
    try {
      return await fn();
    } finally {
      t.clock.now = null;
    }
  };
}
