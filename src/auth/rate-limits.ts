import type { RateLimitSettings } from '../config/config';
import type { Db } from '../db/client';
import { addHits } from '../db/rate-limits';
import { RateLimitedError, UnauthenticatedError } from '../domain/errors';
import { hashToken } from '../lib/ids';

/**
 * A lease takes at most this share of what is left of a window: far from the limit an instance
 * counts most requests in memory, and near it leases shrink to one request, so the limit is
 * exact where it matters. Permits an instance leased and did not use are lost to the others,
 * which can only refuse a caller early, never let one in past the limit.
 */
const LEASE_SHARE = 16;
/** The largest lease, so that a caller moving to another instance strands little. */
const MAX_LEASE = 100;
/**
 * Far from the limit, the next lease is asked for in the background when this many permits are
 * left, so no request waits for it.
 */
const REFILL_AT = 10;
/** Past this many callers in memory, those of finished windows are forgotten. */
const MAX_BUCKETS = 50_000;
/** Bucket names of recent Authorization headers, so a repeat caller's token is not hashed again. */
const MAX_TOKEN_NAMES = 10_000;

interface Window {
  start: number;
  /** Requests this instance has leased and not used yet. */
  permits: number;
  /** The bucket's total in the database after this instance's last lease. */
  known: number;
  /** The limit was reached: refuse without asking the database until the window ends. */
  exhausted: boolean;
  /** The background lease under way, if any: a request that finds no permit waits for it. */
  refill: Promise<void> | null;
}

/**
 * Fixed-window request limits shared through PostgreSQL by every instance. Each instance leases
 * permits from the database's count in batches (one UPSERT per lease), then spends them in memory,
 * leasing the next batch before this one runs out.
 */
export class RateLimiter {
  private readonly windows = new Map<string, Window>();
  private readonly tokenBuckets = new Map<string, string>();
  private readonly windowMs: number;

  constructor(
    private readonly db: Db,
    readonly settings: RateLimitSettings,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.windowMs = settings.windowSeconds * 1000;
  }

  /**
   * Authenticates through `authenticate` under the limits: anonymous requests count per IP, token
   * requests per token, and a refused token per IP on the stricter failure limit, which once
   * reached refuses every token from that IP before it is even checked (no guessing on).
   */
  async admit<T>(header: string | null, ip: string, authenticate: () => Promise<T>): Promise<T> {
    const { perIp, perToken, authFailuresPerIp } = this.settings;
    if (!header) {
      await this.take(`ip:${ip}`, perIp);
      return authenticate();
    }
    const failures = `auth:${ip}`;
    this.refuseIfExhausted(failures);
    let result: T;
    try {
      result = await authenticate();
    } catch (error) {
      if (error instanceof UnauthenticatedError) await this.take(failures, authFailuresPerIp);
      throw error;
    }
    const leasing = this.take(this.tokenBucket(header), perToken);
    if (leasing) await leasing;
    return result;
  }

  /**
   * Counts one request on `bucket`; throws (or rejects with) RateLimitedError past `limit` in
   * this window. Answers nothing when a leased permit pays for it: most requests take no promise.
   */
  take(bucket: string, limit: number): Promise<void> | undefined {
    const now = this.now().getTime();
    const window = this.window(bucket, now);
    if (window.exhausted) throw this.refusal(window, now);
    if (window.permits > 0) {
      window.permits -= 1;
      if (window.permits === REFILL_AT && !window.refill && this.leaseSize(limit, window) > 1) {
        // A failed refill is only an early one: the request that runs out leases and reports it.
        window.refill = this.lease(bucket, limit, window, now, false)
          .catch(() => {})
          .finally(() => (window.refill = null));
      }
      return undefined;
    }
    if (window.refill) return window.refill.then(() => this.take(bucket, limit));
    return this.lease(bucket, limit, window, now, true);
  }

  private leaseSize(limit: number, window: Window): number {
    return Math.min(MAX_LEASE, Math.max(1, Math.floor((limit - window.known) / LEASE_SHARE)));
  }

  /** Leases permits; `forRequest`: one of them pays for the current request, which is refused if none is granted. */
  private async lease(bucket: string, limit: number, window: Window, now: number, forRequest: boolean): Promise<void> {
    const lease = this.leaseSize(limit, window);
    const total = await addHits(this.db, bucket, new Date(window.start + this.windowMs), lease);
    // What this lease may spend: the part of it that fits under the limit, given everyone's hits.
    const granted = Math.max(0, Math.min(lease, limit - (total - lease)));
    window.known = Math.max(window.known, total);
    if (!forRequest) {
      window.permits += granted;
      return;
    }
    if (granted === 0) {
      window.exhausted = true;
      throw this.refusal(window, now);
    }
    window.permits += granted - 1;
  }

  /** The token's bucket: named by its hash, since bucket names are stored in the database. */
  private tokenBucket(header: string): string {
    let bucket = this.tokenBuckets.get(header);
    if (bucket === undefined) {
      if (this.tokenBuckets.size >= MAX_TOKEN_NAMES) this.tokenBuckets.clear();
      bucket = `token:${hashToken(header.replace(/^\s*Bearer\s+/i, '').trim())}`;
      this.tokenBuckets.set(header, bucket);
    }
    return bucket;
  }

  private refuseIfExhausted(bucket: string): void {
    const now = this.now().getTime();
    const window = this.windows.get(bucket);
    if (window && window.start === this.windowStart(now) && window.exhausted) throw this.refusal(window, now);
  }

  private windowStart(now: number): number {
    return Math.floor(now / this.windowMs) * this.windowMs;
  }

  private window(bucket: string, now: number): Window {
    const start = this.windowStart(now);
    let window = this.windows.get(bucket);
    if (!window || window.start !== start) {
      if (!window && this.windows.size >= MAX_BUCKETS) this.forgetBefore(start);
      window = { start, permits: 0, known: 0, exhausted: false, refill: null };
      this.windows.set(bucket, window);
    }
    return window;
  }

  private forgetBefore(start: number): void {
    for (const [bucket, window] of this.windows) if (window.start < start) this.windows.delete(bucket);
    // Still full of current callers: dropping their leases only makes the next requests ask again.
    if (this.windows.size >= MAX_BUCKETS) this.windows.clear();
  }

  private refusal(window: Window, now: number): RateLimitedError {
    return new RateLimitedError(Math.max(1, Math.ceil((window.start + this.windowMs - now) / 1000)));
  }
}
