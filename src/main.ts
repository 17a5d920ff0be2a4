import { createApp } from './app/app';
import { requestTimeoutMs, withDeadline } from './app/deadline';
import { loadConfig, loadObservabilityConfig } from './config/config';
import { seedDemoIfEmpty } from './app/seed';
import { listen } from './app/server';
import { openDatabaseWhenReachable } from './db/reachable';
import { startSessionCache } from './auth/sessions';
import { JobQueue } from './jobs/queue';
import { StatementCounter } from './db/client';
import { createLogger, setProcessLog } from './lib/log';
import { createReadiness, type Readiness } from './app/health';
import { createMetrics } from './app/metrics';
import { observe } from './app/observe';
import { exitOnSignals } from './app/shutdown';

const config = { ...loadConfig(), ...loadObservabilityConfig() };
const log = createLogger({ level: config.logLevel });
setProcessLog(log);
const metrics = createMetrics();
const statements = new StatementCounter();
metrics.countStatements(statements);
const started: { readiness?: Readiness } = {};
// Installed first: a signal during startup stops what was started so far, and nothing is cut midway.
const shutdown = exitOnSignals({ log, timeoutMs: config.shutdownTimeoutMs, onDrain: () => started.readiness && (started.readiness.draining = true) });
// A database that is not up yet (or restarting) is waited for, with one log line per attempt.
const database = await openDatabaseWhenReachable({ url: config.databaseUrl, dataDir: config.dataDir, migrate: true, counter: statements, onStatement: metrics.timeStatement });
shutdown.add({ name: 'database pool', run: () => database.close() });
const demo = await seedDemoIfEmpty(database.db);
const { sessions, stop: stopSessions } = await startSessionCache(database);
shutdown.add({ name: 'session cache', run: () => stopSessions() });
const services = { db: database.db, config, now: () => new Date(), sessions };
const app = createApp(services, { graphqlPlugins: [metrics.graphqlPlugin()] });
// After the migrations: pg-boss then creates or migrates its own schema. Only the server works
// jobs; the command line never starts the queue.
const jobs = await JobQueue.start({ database, now: services.now });
shutdown.add({ name: 'job queue', run: () => jobs.stop(config.shutdownTimeoutMs * 0.1) });
metrics.watchJobs(jobs);
const readiness = createReadiness({ database, jobs });
started.readiness = readiness;
const observed = observe(withDeadline(app, requestTimeoutMs()), { log, metrics, metricsAccess: config.metrics, readiness });
const { port, stop } = await listen(observed, config.port);
// Leaves the later steps a fifth of the budget.
shutdown.add({ name: 'http server', run: () => stop(config.shutdownTimeoutMs * 0.8) });

const where = config.databaseUrl ? 'PostgreSQL' : `embedded PGlite (${config.dataDir})`;
log.info({ port, pid: process.pid, data: where, metrics: config.metrics.mode }, `Quire listening on http://localhost:${port} (data: ${where})`);
log.info(`GraphQL + GraphiQL: http://localhost:${port}/graphql   REST: http://localhost:${port}/v1`);
if (demo) {
  console.log(`
First start: created "Demo Organization" (${demo.organizationId}) and its admin admin@demo.quire.test.
Admin API token (shown once, keep it):

  ${demo.token}

Try it:
  curl -H "Authorization: Bearer ${demo.token}" http://localhost:${port}/v1/orgs
In GraphiQL (http://localhost:${port}/graphql), set the header
  { "Authorization": "Bearer ${demo.token}" }
and run: { viewer { user { displayName } organizations { edges { node { title members { totalCount } spaces { edges { node { title parent { title } viewerCanEdit } } } } } } } }
More tokens: npm run --silent quire -- token create --user ${demo.adminUserId}
`);
}
