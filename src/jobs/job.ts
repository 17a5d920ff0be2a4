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
