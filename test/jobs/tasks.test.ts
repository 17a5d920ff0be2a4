import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContext } from '../../src/auth/context';
import type { TaskDefinition } from '../../src/jobs/job';
import { JobQueue } from '../../src/jobs/queue';
import { createTestDatabase, type TestDatabase } from '../support/db';

let database: TestDatabase;
let queue: JobQueue;
const attempts = new Map<string, number>();

const echo: TaskDefinition<{ word: string }> = {
  name: 'test-echo',
  async run({ config }, { word }) {
    return { echoed: word.toUpperCase(), publicUrl: config.publicUrl };
  },
};
// Fails its first two runs of each key, then succeeds: what a flaky receiver does to a delivery.
const flaky: TaskDefinition<{ key: string }> = {
  name: 'test-flaky',
  retry: { limit: 3, delaySeconds: 0 },
  async run(_ctx, { key }) {
    const n = (attempts.get(key) ?? 0) + 1;
    attempts.set(key, n);
    if (n < 3) throw new Error(`attempt ${n} failed`);
    return { attempts: n };
  },
};
const broken: TaskDefinition = {
  name: 'test-broken',
  async run() {
    throw new Error('always broken');
  },
};
// Sends a follow-up through the queue it was given, as an event fan-out does.
const chain: TaskDefinition<{ word: string }> = {
  name: 'test-chain',
  async run({ jobs }, { word }) {
    return { next: await jobs.send('test-echo', { word: `${word}!` }) };
  },
};

beforeAll(async () => {
  database = await createTestDatabase();
  const config = { port: 0, publicUrl: 'http://quire.test', appUrl: 'http://quire.test', dataDir: '' };
  queue = await JobQueue.start({ database, config, jobs: [], tasks: [echo, flaky, broken, chain], pollingIntervalSeconds: 0.5, cron: false });
});
afterAll(async () => {
  await queue?.stop();
  await database?.close();
});

describe('on-demand tasks', () => {
  it('run with their payload and the settings, and keep their output', async () => {
    const id = await queue.send('test-echo', { word: 'quire' });
    expect(await queue.waitFor('test-echo', id)).toEqual({ state: 'completed', output: { echoed: 'QUIRE', publicUrl: 'http://quire.test' } });
  });

  it('are retried after a failure until one run succeeds', async () => {
    const id = await queue.send('test-flaky', { key: 'a' });
    expect(await queue.waitFor('test-flaky', id)).toEqual({ state: 'completed', output: { attempts: 3 } });
  });

  it('end failed, with the error, when no retry is left', async () => {
    const id = await queue.send('test-broken', {});
    const { state, output } = await queue.waitFor('test-broken', id);
    expect(state).toBe('failed');
    expect(JSON.stringify(output)).toContain('always broken');
  });

  it('can send follow-up jobs from a run', async () => {
    const first = await queue.send('test-chain', { word: 'hop' });
    const { output } = await queue.waitFor('test-chain', first);
    const next = (output as { next: string }).next;
    expect((await queue.waitFor('test-echo', next)).output).toMatchObject({ echoed: 'HOP!' });
  });

  it('wait for their start time when sent for later', async () => {
    const id = await queue.send('test-echo', { word: 'later' }, { startAfterSeconds: 3600 });
    await expect(queue.waitFor('test-echo', id, 1500)).rejects.toThrow(/still created/);
  });

  it('refuse an unknown task name', async () => {
    await expect(queue.send('no-such-task', {})).rejects.toThrow(/No task named no-such-task/);
  });
});

describe('a server without a job queue', () => {
  it('answers 503 to an action that sends a job, saying why', async () => {
    const ctx = createContext({ db: database.db, config: { port: 0, publicUrl: 'http://quire.test', appUrl: 'http://quire.test', dataDir: '' } }, null);
    await expect(ctx.jobs.send('test-echo', {})).rejects.toMatchObject({ code: 'UNAVAILABLE', message: expect.stringContaining('job queue is not running') });
  });
});
