/**
 * The content shapes of `npm run bench:worst`: what the GraphQL limits accept but the data makes
 * huge (a revision's `pages` is a plain list, counted as 50 items whatever it holds), and how the
 * request's work bounds (src/context/work-bounds.ts) stop it.
 *
 * - every page's markdown of 100 spaces of 1,000 pages (about 85 MB of text): refused with
 *   RESPONSE_TOO_LARGE once the answer passes QUIRE_MAX_RESPONSE_BYTES;
 * - every page as a JSON document of 5 such spaces (seconds of rendering), behind a deadline of
 *   WORST_DEADLINE_MS (1,000 ms by default): the 503, when execution ended after it, the CPU it
 *   used after the answer, and how soon a /health asked right after the 503 was answered.
 */
import { performance } from 'node:perf_hooks';
import { encodeGlobalID } from '@pothos/plugin-relay';
import type { Plugin } from 'graphql-yoga';
import { createApp, type App } from '../../src/app/app';
import { withDeadline } from '../../src/app/deadline';
import type { Config } from '../../src/config/config';
import type { RequestContext } from '../../src/context/request-context';
import type { Db, StatementCounter } from '../../src/db/client';
import { fillSpaces } from '../support/many-pages';

const PAGES = 1000;
const DEADLINE_MS = Number(process.env.WORST_DEADLINE_MS ?? 1000);
const config: Config = { port: 0, publicUrl: 'http://bench.test', appUrl: 'http://bench.test', dataDir: '' };

const cpuMs = (since: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
};

function post(query: string, token: string, spaceIds: readonly string[]): Request {
  return new Request('http://bench.test/graphql', {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/graphql-response+json' },
    body: JSON.stringify({ query, variables: { ids: spaceIds.map((id) => encodeGlobalID('Space', id)) } }),
  });
}

const everyPage = (field: string) => `query ($ids: [ID!]!) { nodes(ids: $ids) { ... on Space { content { pages { ${field} } } } } }`;

/** Fills the spaces with pages; answers the megabytes of markdown written. */
export async function seedContent(db: Db, spaceIds: readonly string[]): Promise<number> {
  const t0 = performance.now();
  const bytes = await fillSpaces(db, spaceIds, PAGES);
  console.log(`content: ${spaceIds.length} spaces of ${PAGES} pages (${(bytes / 1e6).toFixed(1)} MB of markdown) in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  return bytes;
}

export async function contentShapes(db: Db, counter: StatementCounter, token: string, spaceIds: readonly string[], runs: number): Promise<Record<string, string | number>[]> {
  const gc = (globalThis as { gc?: () => void }).gc;
  const rows: Record<string, string | number>[] = [];
  let ended: ((ctx: RequestContext) => void) | undefined;
  const probe: Plugin = { onExecute: ({ args }) => ({ onExecuteDone: () => ended?.(args.contextValue as unknown as RequestContext) }) };
  const app = createApp({ db, config }, { graphqlPlugins: [probe] });

  for (let run = 0; run < runs; run++) {
    gc?.();
    gc?.();
    const before = process.memoryUsage();
    let peakRss = before.rss;
    const timer = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 5);
    const cpu = process.cpuUsage();
    counter.count = 0;
    const t0 = performance.now();
    const res = await app.fetch(post(everyPage('markdown'), token, spaceIds));
    const text = await res.text();
    clearInterval(timer);
    rows.push({
      shape: `nodes(ids: ${spaceIds.length} spaces) > content > pages(${PAGES}) > markdown${run === 0 ? ' (cold)' : ''}`,
      status: `${res.status} ${(JSON.parse(text) as { errors?: { extensions?: { code?: string } }[] }).errors?.[0]?.extensions?.code ?? ''}`.trim(),
      'answer ms': (performance.now() - t0).toFixed(0),
      'CPU ms': cpuMs(cpu).toFixed(0),
      'RSS Δ MB': ((peakRss - before.rss) / 1e6).toFixed(0),
      SQL: counter.count,
      'KB out': (text.length / 1e3).toFixed(0),
    });
  }

  const five = spaceIds.slice(0, 5);
  const deadlined: App = withDeadline(app, DEADLINE_MS);
  for (let run = 0; run < runs; run++) {
    gc?.();
    const done = new Promise<RequestContext>((resolve) => (ended = resolve));
    const cpu = process.cpuUsage();
    counter.count = 0;
    const t0 = performance.now();
    const res = await deadlined.fetch(post(everyPage('document'), token, five));
    await res.text();
    const answered = performance.now() - t0;
    const cpuAtAnswer = cpuMs(cpu);
    const statementsAtAnswer = counter.count;
    const h0 = performance.now();
    await (await app.fetch(new Request('http://bench.test/health'))).text();
    const healthMs = performance.now() - h0;
    await done;
    const endedMs = performance.now() - t0;
    rows.push({
      shape: `nodes(ids: 5 spaces) > content > pages(${PAGES}) > document, deadline ${DEADLINE_MS} ms${run === 0 ? ' (cold)' : ''}`,
      status: String(res.status),
      'answer ms': answered.toFixed(0),
      'execution ended ms': endedMs.toFixed(0),
      'CPU ms': cpuMs(cpu).toFixed(0),
      'CPU after answer ms': (cpuMs(cpu) - cpuAtAnswer).toFixed(0),
      '/health ms': healthMs.toFixed(0),
      SQL: counter.count,
      'SQL after answer': counter.count - statementsAtAnswer,
    });
  }
  ended = undefined;
  return rows;
}
