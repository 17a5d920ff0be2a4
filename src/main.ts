import { createApp } from './app/app';
import { JOBS, TASKS } from './app/tasks';
import { requestTimeoutMs, withDeadline } from './app/deadline';
import { loadConfig, loadObservabilityConfig, serverTimeouts } from './config/config';
import { describeStartFailure } from './lib/start-failure';
import { appWhenReady } from './app/starting';
import { seedDemoIfEmpty } from './app/seed';
import { listen } from './app/server';
import { openDatabaseWhenReachable } from './db/reachable';
import { openReadRouting } from './db/replica';
import { startSessionCache } from './auth/sessions';
import { JobQueue } from './jobs/queue';
import { NotificationHub } from './db/notification-hub';
import { StatementCounter } from './db/client';
import { createLogger, setProcessLog } from './lib/log';
import { createReadiness, type Readiness } from './app/health';
import { createMetrics } from './app/metrics';
import { observe } from './app/observe';
import { exitOnSignals } from './app/shutdown';
import { closeIntegrationRuntime, configureIntegrationRuntime } from './runtime/deliver';
import { loadPersistedOperations } from './graphql/persisted';
import { schema } from './app/schema';
import { StartupPhases } from './app/startup-phases';

/**
 * Settings, then the port (so a busy port fails before anything is written), then the database,
 * the demo seed and the queue. Requests meanwhile get 503; any failure is one line and exit 1.
 */
async function start() {
  const config = { ...loadConfig(), ...loadObservabilityConfig() };
  // Read and checked with the settings: a list that does not fit the schema stops the start here.
  const persisted = config.persistedOperations && loadPersistedOperations(config.persistedOperations.file, schema, config.persistedOperations.only);
  const log = createLogger({ level: config.logLevel });
  setProcessLog(log);
  const phases = new StartupPhases(log);
  phases.mark('modules and settings');
  const metrics = createMetrics();
  const statements = new StatementCounter();
  metrics.countStatements(statements);
  const started: { readiness?: Readiness } = {};
  // Installed first: a signal during startup stops what was started so far, and nothing is cut midway.
  const shutdown = exitOnSignals({ log, timeoutMs: config.shutdownTimeoutMs, onDrain: () => started.readiness && (started.readiness.draining = true) });
  const readiness: Readiness = {
    draining: false,
    check: async () =>
      started.readiness
        ? started.readiness.check()
        : { ready: false, checks: { draining: readiness.draining, database: 'starting', migrations: 'starting', jobQueue: 'starting' } },
  };
  const gate = appWhenReady();
  const observed = observe(withDeadline(gate.app, requestTimeoutMs()), { log, metrics, metricsAccess: config.metrics, readiness, https: config.publicUrl.startsWith('https://') });
  const { port, stop } = await phases.run('listen', () => listen(observed, config.port, undefined, serverTimeouts(config)));
  // Steps run last registered first: until the rest has started, stopping the server is the only step.
  let stopping: Promise<void> | undefined;
  const httpServer = { name: 'http server', run: () => (stopping ??= stop(config.shutdownTimeoutMs * 0.8)) };
  shutdown.add(httpServer);
  // A database that is not up yet (or restarting) is waited for, with one log line per attempt.
  const database = await openDatabaseWhenReachable({
    url: config.databaseUrl,
    directUrl: config.databaseDirectUrl,
    pooled: config.databasePooled,
    dataDir: config.dataDir,
    migrate: true,
    counter: statements,
    onStatement: metrics.timeStatement,
    onPhase: (phase) => phases.mark(phase),
  });
  shutdown.add({ name: 'database pool', run: () => database.close() });
  const reads = config.databaseReadUrl
    ? await openReadRouting({
        primary: database.db,
        replicaUrl: config.databaseReadUrl,
        pooled: config.databasePooled,
        maxLagBytes: config.replicaMaxLagBytes,
        counter: statements,
        onStatement: metrics.timeStatement,
      })
    : undefined;
  if (reads) shutdown.add({ name: 'replica pool', run: () => reads.close() });
  const demo = await phases.run('seed', () => seedDemoIfEmpty(database.db));
  const { sessions, stop: stopSessions } = await phases.run('session cache', () => startSessionCache(database));
  shutdown.add({ name: 'session cache', run: () => stopSessions() });
  // One LISTEN per channel for every subscription this instance serves.
  const notifications = new NotificationHub(database.listen);
  const services = { db: database.db, config, now: () => new Date(), sessions, notifications };
  // After the migrations: pg-boss then creates or migrates its own schema. Only the server works
  // jobs; the command line never starts the queue.
  // Integration scripts run in workerd processes started on first use; stopped after the queue.
  const runtime = Object.fromEntries(Object.entries(config.integrationRuntime ?? {}).filter(([, v]) => v !== undefined));
  await phases.run('integration runtime', () => configureIntegrationRuntime({ ...runtime, allowHosts: config.fetchAllowHosts ?? [], apiBaseUrl: config.publicUrl }));
  shutdown.add({ name: 'integration runtime', run: () => closeIntegrationRuntime() });
  const jobs = await phases.run('job queue', () => JobQueue.start({ database, now: services.now, config, jobs: JOBS, tasks: TASKS }));
  shutdown.add({ name: 'job queue', run: () => jobs.stop(config.shutdownTimeoutMs * 0.1) });
  metrics.watchJobs(jobs);
  // The server stops first, finishing what it accepted, before the queue, the sessions and the pool.
  shutdown.add(httpServer);
  started.readiness = createReadiness({ database, jobs, replica: reads });
  started.readiness.draining = readiness.draining;
  gate.ready(await phases.run('app build', () => createApp({ ...services, jobs }, { graphqlPlugins: [metrics.graphqlPlugin()], reads, persisted })));
  return { config, log, port, demo, persisted };
}

const { config, log, port, demo, persisted } = await start().catch((error: unknown) => {
  console.error(`Quire could not start: ${describeStartFailure(error)}`);
  process.exit(1);
});

const topology = [config.databasePooled && 'through a pooler', config.databaseReadUrl && 'reads on a replica'].filter(Boolean).join(', ');
const where = config.databaseUrl ? `PostgreSQL${topology ? ` (${topology})` : ''}` : `embedded PGlite (${config.dataDir})`;
log.info({ port, pid: process.pid, data: where, metrics: config.metrics.mode }, `Quire listening on http://localhost:${port} (data: ${where})`);
log.info(`GraphQL${config.http?.graphiql === false ? '' : ' + GraphiQL'}: http://localhost:${port}/graphql   REST: http://localhost:${port}/v1`);
if (persisted) log.info({ file: persisted.file, operations: persisted.texts.size, only: persisted.only }, `Persisted operations: ${persisted.texts.size} from ${persisted.file}${persisted.only ? ' (only these run)' : ''}`);
if (demo) {
  console.log(`
First start: created "Demo Organization" (${demo.organizationId}) and its admin admin@demo.quire.test.
Admin API token (shown once, keep it):

  ${demo.token}

Try it:
  curl -H "Authorization: Bearer ${demo.token}" http://localhost:${port}/v1/orgs

Published sites of the demo, for readers (no token):
${demo.sites.map((s) => `  ${s.title}: http://localhost:${port}${s.path}`).join('\n')}
${
  config.http?.graphiql === false
    ? ''
    : `In GraphiQL (http://localhost:${port}/graphql), set the header
  { "Authorization": "Bearer ${demo.token}" }
and run: { viewer { user { displayName } organizations { edges { node { title members { totalCount } spaces { edges { node { title parent { title } viewerCanEdit } } } } } } } }
`
}More tokens: npm run --silent quire -- token create --email admin@demo.quire.test
`);
} else {
  console.log(`  No new token was printed (the database already has data). Create one with:
    npm run --silent quire -- token create --email <your e-mail>`);
}

