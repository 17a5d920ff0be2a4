import type { Config } from '../config/config';
import type { JobSender, RequestContext, Viewer } from '../context/request-context';
import type { Db } from '../db/client';

/** What a job's handler is given: the app's database and clock. */
export interface JobContext {
  db: Db;
  now(): Date;
  log(message: string): void;
}

/** A recurring job: its queue name, when it runs, and what it does. */
export interface JobDefinition<Output extends object = object> {
  name: string;
  /** Cron expression, in UTC. */
  cron: string;
  /** The output is stored with the completed job in pg-boss. */
  run(ctx: JobContext): Promise<Output>;
}

/** What a task's handler is given: a job's context, the settings, and the queue to send follow-ups. */
export interface TaskContext extends JobContext {
  config: Config;
  jobs: JobSender;
  /**
   * A request context acting as `viewer` (the user who asked for the work), so a task goes
   * through the same service functions, and the same authorization, as that user's request would.
   */
  contextFor(viewer: Viewer | null): RequestContext;
}

/**
 * A job sent on demand with a payload (`ctx.jobs.send(name, data)` in a service): an import, a
 * translation run, an event delivery. Any instance's worker may take it. A run that throws is
 * retried as `retry` says, then left `failed` in pg-boss: a task that must show its failure to
 * users records it in its own tables before throwing (or instead of throwing).
 */
export interface TaskDefinition<Data extends object = Record<string, unknown>> {
  name: string;
  /** Retries after a failed run: `limit` more tries, `delaySeconds` apart, doubling when `backoff`. */
  retry?: { limit: number; delaySeconds: number; backoff?: boolean };
  /** A run still going after this long counts as failed (and is retried). Default 15 minutes. */
  expireInSeconds?: number;
  /** Runs of this task one instance works at once (default 1). */
  concurrency?: number;
  /** The output is stored with the completed job in pg-boss. */
  run(ctx: TaskContext, data: Data): Promise<object | void>;
}

/** A task of any payload, as the queue holds them: each task checks its own data. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyTask = TaskDefinition<any>;
