/**
 * Child process of `npm run bench`: Quire on the bench database, on a loopback port. It answers
 * the runner's `stats` message with its CPU time and the SQL statements it has sent, so the
 * runner can charge them to the requests in between.
 */
import { createApp } from '../../src/app/app';
import { listen } from '../../src/app/server';
import { startSessionCache } from '../../src/auth/sessions';
import { loadConfig } from '../../src/config/config';
import { openDatabase, StatementCounter } from '../../src/db/client';
import { serveStats } from './stats';

const counter = new StatementCounter();
const database = await openDatabase({ url: process.env.QUIRE_BENCH_DATABASE_URL!, counter });
const { sessions } = await startSessionCache(database);
// BENCH_RATE_LIMITS=on: the limiter counts every request, with limits too high to refuse any,
// so what the bench sees is its cost alone.
const rateLimits = process.env.BENCH_RATE_LIMITS === 'on' ? loadConfig({ RATE_LIMIT_PER_TOKEN: String(2 ** 30), RATE_LIMIT_PER_IP: String(2 ** 30) }).rateLimits : undefined;
const app = createApp({ db: database.db, config: { port: 0, publicUrl: 'http://bench.test', appUrl: 'http://bench.test', dataDir: '', rateLimits }, sessions });
const server = await listen(app, 0, '127.0.0.1');
serveStats(server.port, () => counter.count, async () => {
  await server.stop();
  await database.close();
});
