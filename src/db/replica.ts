import { sql } from 'drizzle-orm';
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js';
import { postgresOptions, type Db, type StatementCounter } from './client';
import { preparedSql } from './prepared-sql';
import { timedSql, type StatementTimer } from './timed-sql';

/** How long one look at the replica's replay position serves every request of this instance. */
const POSITION_TTL_MS = 100;
/** A replica that did not answer is left alone this long before it is asked again. */
const DOWN_RETRY_MS = 1_000;
/** A look at the replica that takes longer than this counts as the replica being down. */
const CHECK_TIMEOUT_MS = 500;
export const DEFAULT_MAX_LAG_BYTES = 16 * 1024 * 1024;

/**
 * Where reads may go. Reads go to the replica, except for a caller whose last write the replica
 * has not replayed yet: then they go to the primary, so a caller always sees their own writes,
 * whichever instance answers, while others may lag by the replica's delay.
 */
export interface ReadRouting {
  /** The replica's handle when `userId`'s reads may go there now; null: read on the primary. */
  replicaFor(userId: string | null): Promise<Db | null>;
  /** Records where the WAL stands after a caller's write committed (one statement on the primary). */
  recordWrite(userId: string): Promise<void>;
  /** `ok`, `behind by N bytes`, `down: why`, or `unknown` before the first look: for `/ready`. */
  status(): string;
  close(): Promise<void>;
}

export interface ReadRoutingOptions {
  /** The primary: where write positions are kept and read. */
  primary: Db;
  /** postgres:// URL of a streaming replica of `primary`. */
  replicaUrl: string;
  pooled?: boolean;
  maxLagBytes?: number;
  counter?: StatementCounter;
  onStatement?: StatementTimer;
  /** Milliseconds clock; tests may move it. */
  clock?: () => number;
}

/** `16/B374D848` as a number of bytes, comparable with another. */
export function lsnToBigInt(lsn: string): bigint {
  const [high, low] = lsn.split('/');
  return (BigInt(`0x${high}`) << 32n) + BigInt(`0x${low}`);
}

type ReplicaState = { kind: 'unknown' } | { kind: 'down'; why: string } | { kind: 'up'; replayed: bigint; lagBytes: bigint };

export async function openReadRouting(options: ReadRoutingOptions): Promise<ReadRouting> {
  const { default: postgres } = await import('postgres');
  const client = postgres(options.replicaUrl, postgresOptions(options.pooled ?? false, Number(process.env.DATABASE_POOL_SIZE ?? 10)));
  const statements = options.pooled ? client : preparedSql(client);
  const replica = drizzlePostgres(options.onStatement ? timedSql(statements, options.onStatement) : statements, { casing: 'snake_case', logger: options.counter ?? false });
  const maxLag = BigInt(options.maxLagBytes ?? DEFAULT_MAX_LAG_BYTES);
  const clock = options.clock ?? Date.now;
  let state: ReplicaState = { kind: 'unknown' };
  let checkedAt = -Infinity;
  let looking: Promise<ReplicaState> | null = null;

  /** Both positions in one go; the primary's head only to tell how far behind the replica is. */
  const look = async (): Promise<ReplicaState> => {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${CHECK_TIMEOUT_MS} ms`)), CHECK_TIMEOUT_MS);
    });
    try {
      const [replayRows, headRows] = await Promise.race([
        Promise.all([
          client<{ replayed: string | null }[]>`select pg_last_wal_replay_lsn()::text as replayed`,
          options.primary.execute<{ head: string }>(sql`select pg_current_wal_lsn()::text as head`),
        ]),
        timeout,
      ]);
      const replayed = replayRows[0]?.replayed;
      // Null: the server is not in recovery, so it is no replica of anything.
      if (!replayed) return { kind: 'down', why: 'not a replica (pg_last_wal_replay_lsn() is null)' };
      const head = lsnToBigInt((headRows as unknown as { head: string }[])[0].head);
      const position = lsnToBigInt(replayed);
      return { kind: 'up', replayed: position, lagBytes: head > position ? head - position : 0n };
    } catch (error) {
      return { kind: 'down', why: error instanceof Error ? error.message : String(error) };
    } finally {
      clearTimeout(timer);
    }
  };

  const current = async (): Promise<ReplicaState> => {
    const age = clock() - checkedAt;
    if (age < (state.kind === 'down' ? DOWN_RETRY_MS : POSITION_TTL_MS)) return state;
    // One look at a time per instance, whatever the number of requests waiting for it.
    looking ??= look().then((next) => {
      state = next;
      checkedAt = clock();
      looking = null;
      return next;
    });
    return looking;
  };

  return {
    async replicaFor(userId) {
      const now = await current();
      if (now.kind !== 'up' || now.lagBytes > maxLag) return null;
      if (!userId) return replica;
      const rows = (await options.primary.execute<{ lsn: string }>(sql`select lsn::text as lsn from write_positions where user_id = ${userId}`)) as unknown as { lsn: string }[];
      return !rows.length || lsnToBigInt(rows[0].lsn) <= now.replayed ? replica : null;
    },
    async recordWrite(userId) {
      await options.primary.execute(
        sql`insert into write_positions (user_id, lsn) values (${userId}, pg_current_wal_lsn())
            on conflict (user_id) do update set lsn = excluded.lsn, updated_at = now()`,
      );
    },
    status() {
      if (state.kind === 'unknown') return 'unknown';
      if (state.kind === 'down') return `down: ${state.why}`;
      return state.lagBytes > maxLag ? `behind by ${state.lagBytes} bytes` : 'ok';
    },
    close: () => client.end({ timeout: 5 }),
  };
}
