/**
 * Integration events through the whole server, for `npm run bench` (also `npm run bench:events`
 * alone): a page edit until the installed integration's handler has run (the event is recorded,
 * queued, taken by the worker, delivered to the script in workerd, which reads the space back
 * through the API and logs its title), with the runtime warm and cold; and render through
 * `GET /v1/integrations/{name}/render`. Fresh PostgreSQL database, one at a time.
 *
 * BENCH_EVENTS_ROUNDS (30) sizes it; cold rounds are a third of it.
 */
import LZString from 'lz-string';
import postgres from 'postgres';
import { createApp } from '../../src/app/app';
import { JOBS, TASKS } from '../../src/app/tasks';
import { listen } from '../../src/app/server';
import { authenticate } from '../../src/auth/authenticate';
import { createContext } from '../../src/auth/context';
import { startSessionCache } from '../../src/auth/sessions';
import type { Config } from '../../src/config/config';
import { openDatabase } from '../../src/db/client';
import { JobQueue } from '../../src/jobs/queue';
import { addContent, getContent, updatePage } from '../../src/modules/content/service';
import { closeIntegrationRuntime } from '../../src/runtime/deliver';
import { bootstrapOrganization } from '../../src/modules/members/service';
import { createSpace } from '../../src/modules/spaces/service';
import { createApiToken, ensureUser } from '../../src/modules/users/service';
import { bundleFixture } from '../modules/integrations-runtime/support';
import { benchDatabaseUrl } from './data';

const ROUNDS = Number(process.env.BENCH_EVENTS_ROUNDS ?? 30);
const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((values.length * p) / 100))]!;

export async function measureIntegrationEvents(): Promise<Record<string, string | number>[]> {
  const url = new URL(benchDatabaseUrl());
  url.pathname = '/quire_bench_events';
  const maintenance = new URL(url);
  maintenance.pathname = '/postgres';
  const admin = postgres(maintenance.toString(), { max: 1, onnotice: () => {} });
  await admin.unsafe('drop database if exists quire_bench_events with (force)');
  await admin.unsafe('create database quire_bench_events');
  await admin.end();

  const database = await openDatabase({ url: url.toString(), migrate: true });
  const config: Config = { port: 0, publicUrl: 'http://127.0.0.1', appUrl: 'http://127.0.0.1', dataDir: '' };
  const now = () => new Date();
  const jobs = await JobQueue.start({ database, now, config, jobs: JOBS, tasks: TASKS, pollingIntervalSeconds: 0.5, cron: false });
  const { sessions, stop } = await startSessionCache(database);
  const app = createApp({ db: database.db, config, now, sessions, jobs });
  const server = await listen(app, 0, '127.0.0.1');
  // The script calls the API back at its environment's apiEndpoint: this server.
  config.publicUrl = `http://127.0.0.1:${server.port}`;
  try {
    const { user } = await ensureUser(database.db, { email: 'bench@events.test', name: 'Bench' });
    const org = await bootstrapOrganization(database.db, { title: 'Events bench', adminUserId: user.id });
    const token = await createApiToken(database.db, user.id, 'bench');
    const ctx = () => authenticate(database.db, `Bearer ${token}`).then((viewer) => createContext({ db: database.db, config, jobs }, viewer));
    const call = async (method: string, path: string, body?: unknown) => {
      const res = await app.fetch(new Request(`${config.publicUrl}${path}`, { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) }));
      if (res.status >= 300) throw new Error(`${method} ${path} answered ${res.status}: ${await res.text()}`);
      return res.status === 204 ? null : res.json();
    };

    const space = await createSpace(await ctx(), org.id, { title: 'Bench notes' });
    await addContent(await ctx(), space.id, { pages: [{ title: 'Note', markdown: 'First' }] });
    const pageId = [...(await getContent(await ctx(), space.id)).tree.byId.keys()][0]!;
    const script = await bundleFixture('quire-notes', 'production', 'index.ts');
    await call('POST', '/v1/integrations/bench-notes', { organization: org.id, title: 'Bench notes', description: 'Logs space titles', scopes: ['space:content:read'], script, visibility: 'private' });
    const installation = (await call('POST', '/v1/integrations/bench-notes/installations', { organization: org.id })) as { id: string };
    await call('POST', `/v1/integrations/bench-notes/installations/${installation.id}/spaces`, { space: space.id });

    const sql = postgres(url.toString(), { max: 1, onnotice: () => {} });
    /** Edits the page, then waits until the event of that revision was delivered with the title logged. */
    const editUntilHandled = async (round: number) => {
      const started = performance.now();
      const edited = await updatePage(await ctx(), space.id, pageId, { markdown: `Edit ${round}` });
      const revision = edited.tree.revision.id;
      for (;;) {
        const [row] = await sql`select status, logs::text as logs from integration_events where payload->>'revisionId' = ${revision}`;
        if (row && row.status !== 'pending') {
          if (row.status !== 'success' || !String(row.logs).includes('space title: Bench notes')) throw new Error(`event of round ${round}: ${row.status} ${row.logs}`);
          return performance.now() - started;
        }
        if (performance.now() - started > 30_000) throw new Error(`event of round ${round} not delivered`);
        await new Promise((r) => setTimeout(r, 2));
      }
    };

    await editUntilHandled(-1);
    const warm: number[] = [];
    for (let i = 0; i < ROUNDS; i++) warm.push(await editUntilHandled(i));
    const cold: number[] = [];
    for (let i = 0; i < Math.max(3, Math.round(ROUNDS / 3)); i++) {
      // A new version of the integration has no runtime yet: its first event starts one.
      await sql`update integrations set version = version + 1 where name = 'bench-notes'`;
      cold.push(await editUntilHandled(1000 + i));
    }
    const request = LZString.compressToEncodedURIComponent(JSON.stringify({ componentId: 'note', props: { text: 'Bench' }, context: { type: 'document', spaceId: space.id, editable: false, theme: 'light' } }));
    const render: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      const started = performance.now();
      const answer = (await call('GET', `/v1/integrations/bench-notes/render?request=${request}`)) as { type: string };
      if (answer.type !== 'element') throw new Error('render answered no element');
      render.push(performance.now() - started);
    }
    await sql.end();

    const row = (operation: string, samples: number[]) => ({ operation, runs: samples.length, 'p50 ms': percentile(samples, 50).toFixed(1), 'p99 ms': percentile(samples, 99).toFixed(1) });
    return [
      row('page edit -> integration handler ran (warm runtime)', warm),
      row('page edit -> integration handler ran (cold start)', cold),
      row('render through GET .../render (warm runtime)', render),
    ];
  } finally {
    await server.stop();
    await jobs.stop();
    await stop();
    await closeIntegrationRuntime();
    await database.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.table(await measureIntegrationEvents());
}
