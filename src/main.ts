import { createApp } from './app/app';
import { requestTimeoutMs, withDeadline } from './app/deadline';
import { loadConfig } from './config/config';
import { describeStartFailure } from './lib/start-failure';
import { appWhenReady } from './app/starting';
import { seedDemoIfEmpty } from './app/seed';
import { listen } from './app/server';
import { openDatabaseWhenReachable } from './db/reachable';
import { startSessionCache } from './auth/sessions';
import { JobQueue } from './jobs/queue';

/** Configuration, port, database: any failure here is one line on stderr and exit 1. */
async function start() {
  const config = loadConfig();
  const gate = appWhenReady();
  const { port, stop } = await listen(withDeadline(gate.app, requestTimeoutMs()), config.port);
  // A database that is not up yet (or restarting) is waited for, with one log line per attempt.
  const database = await openDatabaseWhenReachable({ url: config.databaseUrl, dataDir: config.dataDir, migrate: true });
  const demo = await seedDemoIfEmpty(database.db);
  const { sessions, stop: stopSessions } = await startSessionCache(database);
  const services = { db: database.db, config, now: () => new Date(), sessions };
  // After the migrations: pg-boss then creates or migrates its own schema. Only the server works
  // jobs; the command line never starts the queue.
  const jobs = await JobQueue.start({ database, now: services.now });
  gate.ready(createApp(services));
  return { config, port, stop, database, demo, stopSessions, jobs };
}

const { config, port, stop, database, demo, stopSessions, jobs } = await start().catch((error: unknown) => {
  console.error(`Quire could not start: ${describeStartFailure(error)}`);
  process.exit(1);
});

const where = config.databaseUrl ? 'PostgreSQL' : `embedded PGlite (${config.dataDir})`;
console.log(`Quire listening on http://localhost:${port} (data: ${where})`);
console.log(`  GraphQL + GraphiQL: http://localhost:${port}/graphql   REST: http://localhost:${port}/v1`);
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
More tokens: npm run --silent quire -- token create --email admin@demo.quire.test
`);
} else {
  console.log(`  No new token was printed (the database already has data). Create one with:
    npm run --silent quire -- token create --email <your e-mail>`);
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, async () => {
    await stop();
    await jobs.stop();
    await stopSessions();
    await database.close();
    process.exit(0);
  });
}
