import { createApp, type App } from '../../src/app/app';
import { JOBS, TASKS } from '../../src/app/tasks';
import type { Config } from '../../src/config/config';
import { listen } from '../../src/app/server';
import { startSessionCache, type SessionCache } from '../../src/auth/sessions';
import { JobQueue } from '../../src/jobs/queue';
import { NotificationHub } from '../../src/db/notification-hub';
import type { StatementCounter } from '../../src/db/client';
import { createTestDatabase, type TestDatabase } from './db';
import { validateResponse } from './openapi';

export interface RestResponse {
  status: number;
  headers: Headers;
  body: any;
}

export interface TestApp {
  app: App;
  database: TestDatabase;
  db: TestDatabase['db'];
  /** Moves the server's clock. */
  clock: { now: Date | null };
  /** Calls /v1; every response is checked against the official spec before it is returned. */
  rest(method: string, path: string, options?: { token?: string | null; body?: unknown; rawBody?: string }): Promise<RestResponse>;
  graphql(query: string, variables?: Record<string, unknown>, token?: string | null): Promise<{ status: number; body: any }>;
  /** The app's session cache. */
  sessions: SessionCache;
  /** Serves the app on a free loopback port, for real HTTP clients. */
  serve(): Promise<{ url: string; stop(): Promise<void> }>;
  close(): Promise<void>;
  /** The app's settings; tests may change them (e.g. `fetchAllowHosts`). */
  config: Config;
  /** The app's LISTEN fan-out, to wait until a subscription is listening. */
  notifications: NotificationHub;
  /** The job queue the app sends to, when started with `{ jobs: true }`; `close` stops it. */
  jobs?: JobQueue;
}

export interface TestAppOptions {
  /**
   * Starts the real job queue (tasks worked, schedules registered but not fired) and gives it to
   * the app, for tests of actions that send jobs. Off by default: its polling adds statements.
   */
  jobs?: boolean;
  /** The drizzle logger of the app's queries, e.g. a `StatementLog` to read what the server ran. */
  statements?: StatementCounter;
}

export const TEST_ORIGIN = 'http://quire.test';

/** `config` overrides the test server's settings (HTTP policies, public URL). */
export async function startTestApp(overrides: Partial<Config> = {}, options: TestAppOptions = {}): Promise<TestApp> {
  const database = await createTestDatabase(options.statements);
  const clock: { now: Date | null } = { now: null };
  const config: Config = { port: 0, publicUrl: TEST_ORIGIN, appUrl: TEST_ORIGIN, dataDir: '', ...overrides };
  // The session cache of a real server, so tests see what a repeat caller sees.
  const { sessions, stop: stopSessions } = await startSessionCache(database);
  const now = () => clock.now ?? new Date();
  const jobs = options.jobs ? await JobQueue.start({ database, now, config, jobs: JOBS, tasks: TASKS, pollingIntervalSeconds: 0.5, cron: false }) : undefined;
  const notifications = new NotificationHub(database.listen);
  const app = createApp({ db: database.db, config, now, sessions, jobs, notifications });

  return {
    app,
    config,
    database,
    db: database.db,
    clock,
    async rest(method, path, options = {}) {
      const headers: Record<string, string> = {};
      if (options.token) headers.authorization = `Bearer ${options.token}`;
      let body: string | undefined;
      if (options.rawBody !== undefined) body = options.rawBody;
      else if (options.body !== undefined) body = JSON.stringify(options.body);
      if (body !== undefined) headers['content-type'] = 'application/json';
      const response = await app.fetch(new Request(`${TEST_ORIGIN}${path}`, { method, headers, body }));
      const text = await response.text();
      const parsed = text ? JSON.parse(text) : undefined;
      if (response.status !== 405 && !(response.status === 404 && parsed?.error?.message?.startsWith('No route'))) {
        validateResponse(method, path, response.status, parsed);
      }
      return { status: response.status, headers: response.headers, body: parsed };
    },
    async graphql(query, variables, token) {
      const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/graphql-response+json' };
      if (token) headers.authorization = `Bearer ${token}`;
      const response = await app.fetch(
        new Request(`${TEST_ORIGIN}/graphql`, { method: 'POST', headers, body: JSON.stringify({ query, variables }) }),
      );
      return { status: response.status, body: await response.json() };
    },
    async serve() {
      const server = await listen(app, 0, '127.0.0.1');
      return { url: `http://127.0.0.1:${server.port}`, stop: server.stop };
    },
    sessions,
    jobs,
    notifications,
    close: async () => {
      await jobs?.stop();
      await stopSessions();
      await database.close();
    },
  };
}

/**
 * Asks until the token's session is cached: the next request then runs no statement to
 * authenticate. A write made just before (building the fixture) is announced by the database and
 * may empty the cache once more after the first request filled it; a few rounds let it pass.
 */
export async function warmSession(t: TestApp, token: string): Promise<void> {
  for (let round = 0; round < 10; round++) {
    await t.rest('GET', '/v1/user', { token });
    const before = t.database.counter.count;
    await t.rest('GET', '/v1/user', { token });
    if (t.database.counter.count === before) return;
  }
  throw new Error('the session never stayed cached');
}
