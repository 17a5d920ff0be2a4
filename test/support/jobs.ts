import { JobQueue } from '../../src/jobs/queue';
import { JOBS, TASKS } from '../../src/app/tasks';
import type { TestApp } from './clients';

/**
 * Starts the real job queue on a test app's database and clock, schedules registered but not
 * fired: jobs run when the test calls `runNow`. Opt-in: `startTestApp` leaves it off, because its
 * polling would add background statements to every test. Stop it before `t.close()`.
 */
export async function startTestJobs(t: TestApp, log: (message: string) => void = () => {}): Promise<JobQueue> {
  const now = () => t.clock.now ?? new Date();
  return JobQueue.start({ database: t.database, now, log, jobs: JOBS, tasks: TASKS, pollingIntervalSeconds: 0.5, cron: false });
}
