/**
 * The write and render operations of `npm run bench` (also `npm run bench:ops` alone): measured in
 * process, on a fresh PostgreSQL database, one at a time, with the SQL statements each one sends.
 *
 * - merge: a change request that edited 10 pages of a 1,000-page space, merged (POST .../merge);
 * - change request created and 10 pages edited in it, for the cost of the branch itself;
 * - a published page rendered cold (first view after the content moved) and warm (cached, and 304).
 *
 * BENCH_OPS_ROUNDS (20) sizes it.
 */
import postgres from 'postgres';
import { createApp } from '../../src/app/app';
import { createContext } from '../../src/auth/context';
import { authenticate } from '../../src/auth/authenticate';
import { startSessionCache } from '../../src/auth/sessions';
import { openDatabase, StatementCounter } from '../../src/db/client';
import { changeRequestEditTarget, createChangeRequest } from '../../src/modules/change-requests/service';
import { addContent, getContent, updatePage } from '../../src/modules/content/service';
import { bootstrapOrganization } from '../../src/modules/members/service';
import { createSpace } from '../../src/modules/spaces/service';
import { createSite, setPublished } from '../../src/modules/sites/service';
import { createApiToken, ensureUser } from '../../src/modules/users/service';
import { benchDatabaseUrl } from './data';

const ROUNDS = Number(process.env.BENCH_OPS_ROUNDS ?? 20);
const ORIGIN = 'http://bench.test';

const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((values.length * p) / 100))];

export async function measureOperations(): Promise<Record<string, string | number>[]> {
  const url = new URL(benchDatabaseUrl());
  url.pathname = '/quire_bench_ops';
  const maintenance = new URL(url);
  maintenance.pathname = '/postgres';
  const admin = postgres(maintenance.toString(), { max: 1, onnotice: () => {} });
  await admin.unsafe('drop database if exists quire_bench_ops with (force)');
  await admin.unsafe('create database quire_bench_ops');
  await admin.end();

  const counter = new StatementCounter();
  const database = await openDatabase({ url: url.toString(), counter, migrate: true });
  const config = { port: 0, publicUrl: ORIGIN, appUrl: ORIGIN, dataDir: '' };
  const { sessions, stop } = await startSessionCache(database);
  const app = createApp({ db: database.db, config, sessions });
  try {
    const { user } = await ensureUser(database.db, { email: 'bench@ops.test', name: 'Bench' });
    const org = await bootstrapOrganization(database.db, { title: 'Ops bench', adminUserId: user.id });
    const token = await createApiToken(database.db, user.id, 'bench');
    const ctx = () => authenticate(database.db, `Bearer ${token}`).then((viewer) => createContext({ db: database.db, config }, viewer));
    const space = await createSpace(await ctx(), org.id, { title: 'Thousand pages' });
    await addContent(await ctx(), space.id, { pages: Array.from({ length: 1000 }, (_, i) => ({ title: `Page ${i}`, markdown: `# Page ${i}\n\n${'Some text. '.repeat(40)}\n\n## Part\n\nMore.` })) });
    const ids = [...(await getContent(await ctx(), space.id)).tree.byId.values()].map((e) => e.page.data.id);

    const timed = async <T>(fn: () => Promise<T>) => {
      const [at, sql] = [performance.now(), counter.count];
      const value = await fn();
      return { ms: performance.now() - at, sql: counter.count - sql, value };
    };
    const rows: Record<string, string | number>[] = [];
    const report = (operation: string, samples: { ms: number; sql: number }[]) =>
      rows.push({ operation, runs: samples.length, 'p50 ms': percentile(samples.map((s) => s.ms), 50).toFixed(1), 'p99 ms': percentile(samples.map((s) => s.ms), 99).toFixed(1), 'SQL/op': (samples.reduce((n, s) => n + s.sql, 0) / samples.length).toFixed(1) });

    const branch: { ms: number; sql: number }[] = [];
    const merges: { ms: number; sql: number }[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const made = await timed(async () => {
        const c = await ctx();
        const cr = await createChangeRequest(c, space.id, { subject: `Round ${round}` });
        const pointer = changeRequestEditTarget(c, cr);
        for (let i = 0; i < 10; i++) await updatePage(c, space.id, ids[(round * 37 + i * 97) % ids.length], { markdown: `# Edited in round ${round}\n\n${i}` }, pointer);
        return cr.row.id;
      });
      branch.push(made);
      const merged = await timed(() => app.fetch(new Request(`${ORIGIN}/v1/spaces/${space.id}/change-requests/${made.value}/merge`, { method: 'POST', headers: { authorization: `Bearer ${token}` } })));
      if (merged.value.status !== 200) throw new Error(`merge answered ${merged.value.status}: ${await merged.value.text()}`);
      merges.push(merged);
    }
    report('change request + 10 page edits (1,000-page space)', branch);
    report('merge of 10 edited pages (1,000-page space)', merges);

    const site = await createSite(await ctx(), org.id, { title: 'Ops site', spaces: [space.id] });
    await setPublished(await ctx(), site, true);
    const page = `${ORIGIN}/sites/${org.id}/${site.id}/page-500`;
    const cold: { ms: number; sql: number }[] = [];
    const warm: { ms: number; sql: number }[] = [];
    const notModified: { ms: number; sql: number }[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      await updatePage(await ctx(), space.id, ids[500], { markdown: `# Page 500\n\nVersion ${round}` });
      const first = await timed(() => app.fetch(new Request(page)));
      if (first.value.status !== 200) throw new Error(`published page answered ${first.value.status}`);
      cold.push(first);
      const etag = first.value.headers.get('etag')!;
      for (let i = 0; i < 5; i++) warm.push(await timed(() => app.fetch(new Request(page))));
      notModified.push(await timed(() => app.fetch(new Request(page, { headers: { 'if-none-match': etag } }))));
    }
    report('published page, cold (first view after an edit)', cold);
    report('published page, warm (rendered page cached)', warm);
    report('published page, 304 (If-None-Match)', notModified);
    const warmRps = 1000 / percentile(warm.map((s) => s.ms), 50);
    rows.push({ operation: 'published page, warm, requests/s one at a time', runs: warm.length, 'p50 ms': '', 'p99 ms': '', 'SQL/op': '', 'req/s': Math.round(warmRps) });
    return rows;
  } finally {
    await stop();
    await database.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.table(await measureOperations());
}
