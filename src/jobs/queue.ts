import { setTimeout as delay } from 'node:timers/promises';
import PgBoss from 'pg-boss';
import { createContext } from '../auth/context';
import type { Config } from '../config/config';
import type { JobSender, SendJobOptions, Viewer } from '../context/request-context';
import type { Database, ExecuteSql } from '../db/client';
import { processLog } from '../lib/log';
import type { AnyTask, JobDefinition } from './job';

export interface JobQueueOptions {
  database: Pick<Database, 'db' | 'executeSql'>;
  /** The app's clock (`AppServices.now`), so tests that move it move the jobs too. */
  now?: () => Date;
  log?: (message: string) => void;
  /** Recurring jobs to schedule and work: the composition root's list (src/app/tasks.ts). */
  jobs: JobDefinition[];
  /** On-demand tasks to work: the composition root's list (src/app/tasks.ts). */
  tasks: AnyTask[];
  /** The settings tasks are given (defaults suit tests: no public URL is assumed). */
  config?: Config;
  /**
   * How long an idle worker waits before looking for jobs again. Cron jobs are hourly at most, so
   * a few seconds late costs nothing, and each look is a statement per worker per instance.
   */
  pollingIntervalSeconds?: number;
  /**
   * Whether this instance fires the schedules (default true). Tests turn it off so that a job runs
   * only when they send it, not because their run crossed the top of an hour.
   */
  cron?: boolean;
}

const FINISHED = new Set(['completed', 'failed', 'cancelled']);

/**
 * pg-boss 10 inserts a queue and attaches its partition in one transaction, so instances that
 * create queues at the same moment (a first start of several) can deadlock; Postgres then aborts
 * all but one. The queue exists once the survivor commits: the victim only has to try again,
 * which finds it and does nothing.
 */
async function createQueue(boss: PgBoss, name: string, options?: PgBoss.Queue): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await boss.createQueue(name, options);
    } catch (error) {
      if ((error as { code?: string }).code !== '40P01' || attempt === 5) throw error;
      await delay(50 * attempt);
    }
  }
}

/**
 * pg-boss on the app's own database handle: its tables live in the `pgboss` schema beside the
 * app's, and every instance of the server runs the same workers. pg-boss makes a scheduled job
 * fire once per tick whatever the number of instances, and hands each job to one worker.
 */
export class JobQueue implements JobSender {
  /** Statements pg-boss has sent and not yet seen answered; `stop` waits for them. */
  private readonly pending = new Set<Promise<unknown>>();
  private running = 0;
  private readonly workers = new Map<string, string>();
  private readonly tasks = new Map<string, AnyTask>();
  private readonly boss: PgBoss;
  private stopping: Promise<void> | null = null;

  /** True from a completed `start` until `stop` is called: what readiness asks. */
  get started(): boolean {
    return this.stopping === null;
  }

  /** Jobs waiting to be worked, by queue name (the `job_queue_depth` gauge). */
  async depths(): Promise<Record<string, number>> {
    const depths: Record<string, number> = {};
    for (const name of this.workers.keys()) depths[name] = await this.boss.getQueueSize(name);
    return depths;
  }

  private constructor(private readonly options: JobQueueOptions) {
    const executeSql: ExecuteSql = (text, values) => {
      const statement = options.database.executeSql(text, values);
      const settle = () => this.pending.delete(statement);
      this.pending.add(statement);
      statement.then(settle, settle);
      return statement;
    };
    this.boss = new PgBoss({ db: { executeSql }, schedule: options.cron ?? true });
    // pg-boss reports failed polls and maintenance as events; without a listener they would crash.
    this.boss.on('error', (err) => processLog().error({ err }, 'job queue error'));
  }

  /** Creates or migrates the `pgboss` schema, then schedules and works every job. */
  static async start(options: JobQueueOptions): Promise<JobQueue> {
    const queue = new JobQueue(options);
    await queue.boss.start();
    for (const job of options.jobs) {
      await createQueue(queue.boss, job.name);
      await queue.boss.schedule(job.name, job.cron);
      const polling = { pollingIntervalSeconds: options.pollingIntervalSeconds ?? 10 };
      const workerId = await queue.boss.work(job.name, polling, () => queue.run(job));
      queue.workers.set(job.name, workerId);
    }
    for (const task of options.tasks) await queue.workTask(task);
    return queue;
  }

  private async workTask(task: AnyTask): Promise<void> {
    const retry = task.retry ?? { limit: 0, delaySeconds: 0 };
    await createQueue(this.boss, task.name, {
      name: task.name,
      retryLimit: retry.limit,
      retryDelay: retry.delaySeconds,
      retryBackoff: retry.backoff ?? false,
      expireInSeconds: task.expireInSeconds ?? 15 * 60,
    });
    const polling = { pollingIntervalSeconds: this.options.pollingIntervalSeconds ?? 2 };
    let workerId = '';
    for (let i = 0; i < (task.concurrency ?? 1); i++) {
      workerId = await this.boss.work<object>(task.name, polling, async ([job]) => this.runTask(task, job!.data));
    }
    this.workers.set(task.name, workerId);
    this.tasks.set(task.name, task);
  }

  private async runTask(task: AnyTask, data: object): Promise<object> {
    this.running += 1;
    try {
      const { db } = this.options.database;
      const log = this.options.log ?? ((message: string) => processLog().info({ job: task.name }, message));
      const config = this.options.config ?? ({ port: 0, publicUrl: 'http://localhost', appUrl: 'http://localhost', dataDir: '' } as Config);
      const now = this.options.now ?? (() => new Date());
      const contextFor = (viewer: Viewer | null) => createContext({ db, config, now, jobs: this }, viewer);
      return (await task.run({ db, now, log, config, jobs: this, contextFor }, data)) ?? {};
    } finally {
      this.running -= 1;
    }
  }

  /**
   * Queues one run of a task for any instance's worker (JobSender). The worker of this instance
   * is woken at once, so a job sent here does not wait for its next poll.
   */
  async send(name: string, data: object, options: SendJobOptions = {}): Promise<string> {
    const workerId = this.workers.get(name);
    if (!workerId || !this.tasks.has(name)) throw new Error(`No task named ${name}`);
    const id = await this.boss.send(name, data, options.startAfterSeconds ? { startAfter: options.startAfterSeconds } : {});
    if (!id) throw new Error(`pg-boss refused a ${name} job`);
    if (!options.startAfterSeconds) this.boss.notifyWorker(workerId);
    return id;
  }

  assertRunning(name: string): void {
    if (!this.workers.has(name) || !this.tasks.has(name)) throw new Error(`No task named ${name}`);
  }

  /**
   * Waits until the job `id` of queue `name` has finished, retries included, and answers its
   * state and output. For tests and the CLI; services never wait for a job.
   */
  async waitFor(name: string, id: string, timeoutMs = 15_000): Promise<{ state: string; output: object }> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const job = await this.boss.getJobById(name, id, { includeArchive: true });
      if (job && FINISHED.has(job.state)) return { state: job.state, output: job.output };
      if (Date.now() > deadline) throw new Error(`${name} job ${id} is still ${job?.state ?? 'missing'} after ${timeoutMs} ms`);
      await delay(50);
    }
  }

  private async run(job: JobDefinition): Promise<object> {
    this.running += 1;
    try {
      const { db } = this.options.database;
      const now = this.options.now ?? (() => new Date());
      return await job.run({ db, now, log: this.options.log ?? ((message) => processLog().info({ job: job.name }, message)) });
    } finally {
      this.running -= 1;
    }
  }

  /**
   * Sends one job through the queue, outside its schedule, and waits until a worker (of this
   * instance or another) has finished it. Answers the job's output; a failed job throws.
   */
  async runNow(name: string, timeoutMs = 15_000): Promise<object> {
    const workerId = this.workers.get(name);
    if (!workerId) throw new Error(`No job named ${name}`);
    const id = await this.boss.send(name, {});
    if (!id) throw new Error(`pg-boss refused a ${name} job`);
    // Spares the wait for the worker's next poll.
    this.boss.notifyWorker(workerId);
    const { state, output } = await this.waitFor(name, id, timeoutMs);
    if (state !== 'completed') throw new Error(`${name} job ${id} ${state}: ${JSON.stringify(output)}`);
    return output;
  }

  /**
   * Stops polling and scheduling, lets a running job finish, then waits for pg-boss's last
   * statements: the database may be closed as soon as this resolves.
   */
  stop(timeoutMs = 10_000): Promise<void> {
    this.stopping ??= (async () => {
      const deadline = Date.now() + timeoutMs;
      await this.boss.stop({ graceful: true, timeout: timeoutMs, close: false });
      // pg-boss resolves without waiting for a poll already sent, which may still hand over a job,
      // nor for the completion it records after a job (a later tick).
      do {
        await delay(50);
      } while ((this.running > 0 || this.pending.size > 0) && Date.now() < deadline);
    })();
    return this.stopping;
  }
}
