/** /ready and /metrics with the real job queue: its depth is exposed, and a stopped queue is not ready. */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createReadiness } from '../../src/app/health';
import { createMetrics } from '../../src/app/metrics';
import type { JobQueue } from '../../src/jobs/queue';
import { startTestApp, type TestApp } from '../support/clients';
import { startTestJobs } from '../support/jobs';

let t: TestApp;
let jobs: JobQueue;

beforeAll(async () => {
  t = await startTestApp();
  jobs = await startTestJobs(t);
});
afterAll(async () => {
  await jobs?.stop();
  await t?.close();
});

it('reports the queue depth while the queue runs, and is not ready once it stopped', async () => {
  const metrics = createMetrics();
  metrics.watchJobs(jobs);
  expect(await metrics.registry.metrics()).toMatch(/^job_queue_depth\{queue="purge-deleted-spaces"\} \d+$/m);

  const readiness = createReadiness({ database: t.database, jobs });
  expect(await readiness.check()).toEqual({ ready: true, checks: { draining: false, database: 'ok', migrations: 'ok', jobQueue: 'ok' } });
  await jobs.stop();
  const report = await readiness.check();
  expect(report.ready).toBe(false);
  expect(report.checks.jobQueue).toBe('stopped');
});
