/**
 * `npm run bench:live`: the time from a comment posted through one instance (POST .../comments
 * sent) to its event reaching a subscriber of another instance (the SSE `next` read), two app
 * instances with their own pools on one fresh PostgreSQL database, as two processes would be.
 *
 * BENCH_LIVE_ROUNDS (200) sizes it. BENCH_LIVE_COMMENT=1 has the subscriber ask for the comment too
 * (its text, author and reactions), which each event reads afresh.
 */
import postgres from 'postgres';
import { createApp } from '../../src/app/app';
import { startSessionCache } from '../../src/auth/sessions';
import { openDatabase } from '../../src/db/client';
import { NotificationHub } from '../../src/db/notification-hub';
import { bootstrapOrganization } from '../../src/modules/members/service';
import { createApiToken, ensureUser } from '../../src/modules/users/service';
import { benchDatabaseUrl } from './data';

const ROUNDS = Number(process.env.BENCH_LIVE_ROUNDS ?? 200);
const SELECTION = process.env.BENCH_LIVE_COMMENT ? 'kind commentId comment { markdown postedBy { displayName } reactions { emoji count } }' : 'kind commentId';
const ORIGIN = 'http://bench.test';
const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((values.length * p) / 100))];

const url = new URL(benchDatabaseUrl());
url.pathname = '/quire_bench_live';
const maintenance = new URL(url);
maintenance.pathname = '/postgres';
const admin = postgres(maintenance.toString(), { max: 1, onnotice: () => {} });
await admin.unsafe('drop database if exists quire_bench_live with (force)');
await admin.unsafe('create database quire_bench_live');
await admin.end();

const config = { port: 0, publicUrl: ORIGIN, appUrl: ORIGIN, dataDir: '' };
const a = await openDatabase({ url: url.toString(), migrate: true });
const b = await openDatabase({ url: url.toString() });
const instance = async (database: typeof a) => {
  const { sessions, stop } = await startSessionCache(database);
  return { app: createApp({ db: database.db, config, sessions, notifications: new NotificationHub(database.listen) }), stop };
};
const [first, second] = [await instance(a), await instance(b)];

const { user } = await ensureUser(a.db, { email: 'live@bench.test', name: 'Live' });
const org = await bootstrapOrganization(a.db, { title: 'Live', adminUserId: user.id });
const token = await createApiToken(a.db, user.id, 'bench');
const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
const space = (await (await first.app.fetch(new Request(`${ORIGIN}/v1/orgs/${org.id}/spaces`, { method: 'POST', headers, body: JSON.stringify({ title: 'Live' }) }))).json()) as { id: string };

const response = await second.app.fetch(
  new Request(`${ORIGIN}/graphql`, {
    method: 'POST',
    headers: { ...headers, accept: 'text/event-stream' },
    body: JSON.stringify({ query: `subscription ($s: ID!) { commentEvents(spaceId: $s) { ${SELECTION} } }`, variables: { s: Buffer.from(`Space:${space.id}`).toString('base64') } }),
  }),
);
const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
let buffer = '';
async function nextEvent(): Promise<string> {
  for (;;) {
    const match = /data: (\{.*\})\n\n/.exec(buffer);
    if (match) {
      buffer = buffer.slice(match.index + match[0].length);
      return JSON.parse(match[1]).data.commentEvents.commentId;
    }
    const { value, done } = await reader.read();
    if (done) throw new Error('the subscription ended');
    buffer += value;
  }
}

const post = () => first.app.fetch(new Request(`${ORIGIN}/v1/spaces/${space.id}/comments`, { method: 'POST', headers, body: JSON.stringify({ body: { markdown: 'ping' } }) }));
// The first post also waits for the subscription's LISTEN: not measured.
for (let warm = 0; warm < 20; warm++) {
  const [answer, seen] = await Promise.all([post().then((r) => r.json() as Promise<{ id: string }>), nextEvent()]);
  if (answer.id !== seen) throw new Error('events out of order');
}
const times: number[] = [];
for (let i = 0; i < ROUNDS; i++) {
  const started = performance.now();
  const [, seen] = await Promise.all([post(), nextEvent()]);
  if (!seen) throw new Error('no event');
  times.push(performance.now() - started);
}
console.table([{ measure: `post -> subscriber on another instance (ms)${process.env.BENCH_LIVE_COMMENT ? ', with the comment' : ''}`, rounds: ROUNDS, p50: percentile(times, 50).toFixed(1), p99: percentile(times, 99).toFixed(1) }]);
await reader.cancel();
await first.stop();
await second.stop();
await a.close();
await b.close();
process.exit(0);
