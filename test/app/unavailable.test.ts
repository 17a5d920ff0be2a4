import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, type App } from '../../src/app/app';
import type { Config } from '../../src/config/config';
import { withDeadline } from '../../src/app/deadline';
import { openDatabase, type Database, type Db } from '../../src/db/client';
import { openDatabaseWhenReachable } from '../../src/db/reachable';
import { describeUnavailable, isDatabaseUnavailable } from '../../src/lib/unavailable';
import { ValidationError } from '../../src/domain/errors';
import { TEST_ORIGIN } from '../support/clients';
import { createTestDatabase, type TestDatabase } from '../support/db';
import { buildOrganization } from '../support/factories';
import { validateResponse } from '../support/openapi';
import { freePort } from '../faults/pg-cluster';

const config: Config = { port: 0, publicUrl: TEST_ORIGIN, appUrl: TEST_ORIGIN, dataDir: '' };

function connectionError(code: string): Error {
  return Object.assign(new Error(`write ${code} 127.0.0.1:5432`), { code });
}

function request(path: string, init: { token?: string; body?: unknown } = {}): Request {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (init.token) headers.authorization = `Bearer ${init.token}`;
  const method = init.body === undefined ? 'GET' : 'POST';
  return new Request(`${TEST_ORIGIN}${path}`, { method, headers, body: init.body === undefined ? undefined : JSON.stringify(init.body) });
}

describe('isDatabaseUnavailable', () => {
  it('recognizes a lost or refused connection, however it is wrapped', () => {
    for (const code of ['CONNECTION_CLOSED', 'CONNECTION_ENDED', 'CONNECTION_DESTROYED', 'CONNECT_TIMEOUT', 'ECONNREFUSED', 'ECONNRESET', 'EPIPE']) {
      expect(isDatabaseUnavailable(connectionError(code)), code).toBe(true);
    }
    // PostgreSQL shutting down, starting up, out of connections, connection exceptions.
    for (const code of ['57P01', '57P02', '57P03', '53300', '08006', '08001']) {
      expect(isDatabaseUnavailable(Object.assign(new Error('postgres says no'), { code })), code).toBe(true);
    }
    // drizzle's DrizzleQueryError keeps the driver's error as `cause`; net can give an AggregateError.
    expect(isDatabaseUnavailable(new Error('Failed query: select 1', { cause: connectionError('CONNECTION_CLOSED') }))).toBe(true);
    expect(isDatabaseUnavailable(new AggregateError([connectionError('ECONNREFUSED')], 'connect failed'))).toBe(true);
    expect(describeUnavailable(new Error('Failed query', { cause: connectionError('ECONNREFUSED') }))).toBe('write ECONNREFUSED 127.0.0.1:5432');
  });

  it('leaves every other failure alone', () => {
    expect(isDatabaseUnavailable(Object.assign(new Error('duplicate key'), { code: '23505' }))).toBe(false);
    expect(isDatabaseUnavailable(Object.assign(new Error('canceling statement due to statement timeout'), { code: '57014' }))).toBe(false);
    expect(isDatabaseUnavailable(Object.assign(new Error('password authentication failed'), { code: '28P01' }))).toBe(false);
    expect(isDatabaseUnavailable(new ValidationError('bad'))).toBe(false);
    expect(isDatabaseUnavailable(new TypeError("Cannot read properties of null (reading 'write')"))).toBe(false);
    expect(isDatabaseUnavailable(null)).toBe(false);
    expect(isDatabaseUnavailable('ECONNREFUSED')).toBe(false);
  });
});

describe('with the database unreachable', () => {
  let database: Database;
  let app: App;
  let url: string;

  beforeAll(async () => {
    // A port nothing listens on: every connection attempt is refused at once.
    url = `postgres://quire@127.0.0.1:${await freePort()}/quire`;
    database = await openDatabase({ url });
    app = createApp({ db: database.db, config });
  });

  afterAll(() => database.close());

  it('REST answers 503 with Retry-After in the platform error shape', async () => {
    const started = Date.now();
    const response = await app.fetch(request('/v1/orgs', { token: 'any-token' }));
    const body = await response.json();
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('1');
    expect(body).toEqual({ error: { code: 503, message: expect.stringContaining('database is unavailable') } });
    validateResponse('GET', '/v1/orgs', 503, body);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('GraphQL answers 503 with extensions.code SERVICE_UNAVAILABLE', async () => {
    const response = await app.fetch(request('/graphql', { token: 'any-token', body: { query: '{ viewer { user { id } } }' } }));
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('1');
    const body = await response.json();
    expect(body.errors).toEqual([{ message: expect.stringContaining('database is unavailable'), extensions: { code: 'SERVICE_UNAVAILABLE' } }]);
  });

  it('the server waits for it at start, one log line per attempt, and gives up only when told', async () => {
    const lines: string[] = [];
    const waits: number[] = [];
    const attempt = openDatabaseWhenReachable(
      { url, migrate: true },
      { log: (line) => lines.push(line), maxAttempts: 4, sleep: async (ms) => waits.push(ms) },
    );
    await expect(attempt).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^Database not reachable \(attempt 1: .*ECONNREFUSED.*\); retrying in 100 ms$/);
    expect(waits).toEqual([100, 200, 400]);
  });
});

describe('GraphQL resolvers losing the database', () => {
  let database: TestDatabase;
  let token: string;
  let broken: Db;

  beforeAll(async () => {
    database = await createTestDatabase();
    token = (await buildOrganization(database.db)).admin.token;
    // The first statement (authenticating the token) goes through; every later one fails as
    // postgres.js does when the connection drops, wrapped as drizzle wraps it.
    let statements = 0;
    broken = new Proxy(database.db, {
      get(target, property, receiver) {
        const value = Reflect.get(target, property, receiver);
        if (property !== 'select' && property !== 'insert' && property !== 'transaction') return value;
        return (...args: unknown[]) => {
          if (++statements > 1) throw new Error('Failed query', { cause: connectionError('CONNECTION_CLOSED') });
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    });
  });

  afterAll(() => database.close());

  it('masks the failure as SERVICE_UNAVAILABLE and answers 503', async () => {
    const app = createApp({ db: broken, config });
    const query = '{ viewer { organizations { edges { node { id title } } } } }';
    const response = await app.fetch(request('/graphql', { token, body: { query } }));
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('1');
    const body = await response.json();
    expect(body.errors).toHaveLength(1);
    // extensions.http sets the status; it stays out of the body.
    expect(body.errors[0]).toMatchObject({ message: expect.stringContaining('database is unavailable'), extensions: { code: 'SERVICE_UNAVAILABLE' } });
    expect(body.errors[0].extensions).toEqual({ code: 'SERVICE_UNAVAILABLE' });
  });
});

describe('request deadline', () => {
  const never: App = { fetch: () => new Promise<Response>(() => {}) };

  it('answers 503 with Retry-After once the deadline passes, in the shape of each door', async () => {
    const app = withDeadline(never, 50);
    const rest = await app.fetch(request('/v1/orgs'));
    expect(rest.status).toBe(503);
    expect(rest.headers.get('retry-after')).toBe('1');
    expect(await rest.json()).toEqual({ error: { code: 503, message: 'The request did not finish within 50 ms; try again shortly' } });

    const graphql = await app.fetch(request('/graphql', { body: { query: '{ viewer { user { id } } }' } }));
    expect(graphql.status).toBe(503);
    expect((await graphql.json()).errors[0].extensions.code).toBe('SERVICE_UNAVAILABLE');
  });

  it('aborts the signal it hands the app once the deadline passes, or once the client goes away', async () => {
    let signal: AbortSignal | undefined;
    const hanging: App = {
      fetch: (_request, client) => {
        signal = client?.signal;
        return new Promise<Response>(() => {});
      },
    };
    expect((await withDeadline(hanging, 50).fetch(request('/v1/orgs'))).status).toBe(503);
    expect(signal?.aborted).toBe(true);

    const client = new AbortController();
    const answer = withDeadline(hanging, 60_000).fetch(new Request(`${TEST_ORIGIN}/v1/orgs`, { signal: client.signal }));
    expect(signal?.aborted).toBe(false);
    client.abort();
    expect(signal?.aborted).toBe(true);
    void answer;
  });

  it('leaves a request that answers in time alone', async () => {
    const app = withDeadline({ fetch: async () => Response.json({ ok: true }) }, 1_000);
    const response = await app.fetch(request('/health'));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: true });
  });
});
