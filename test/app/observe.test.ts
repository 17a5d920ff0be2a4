/**
 * What an operator sees of requests: one JSON log line each (with the route template, never the
 * token), the X-Request-Id header, the id quoted by a 500 and found in the log, /metrics and /ready.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app/app';
import { createReadiness } from '../../src/app/health';
import { createMetrics, type Metrics } from '../../src/app/metrics';
import { observe } from '../../src/app/observe';
import { loadObservabilityConfig, type Config } from '../../src/config/config';
import { createLogger } from '../../src/lib/log';
import { createTestDatabase, type TestDatabase } from '../support/db';
import { buildOrganization, type OrgFixture } from '../support/factories';

const ORIGIN = 'http://quire.test';
const config: Config = { port: 0, publicUrl: ORIGIN, appUrl: ORIGIN, dataDir: '' };

type LogLine = Record<string, unknown> & { msg: string; reqId?: string };

let database: TestDatabase;
let org: OrgFixture;
let metrics: Metrics;
let lines: LogLine[];
let app: ReturnType<typeof observe>;
let readiness: ReturnType<typeof createReadiness>;

function get(path: string, headers: Record<string, string> = {}) {
  return app.fetch(new Request(`${ORIGIN}${path}`, { headers }));
}

function graphql(query: string, token: string) {
  return app.fetch(
    new Request(`${ORIGIN}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ query }),
    }),
  );
}

function requestLine(id: string): LogLine {
  const line = lines.find((l) => l.reqId === id && l.msg === 'request');
  if (!line) throw new Error(`no request line for ${id} in ${JSON.stringify(lines)}`);
  return line;
}

beforeAll(async () => {
  database = await createTestDatabase();
  org = await buildOrganization(database.db);
  metrics = createMetrics();
  lines = [];
  const destination = { write: (chunk: string) => lines.push(JSON.parse(chunk) as LogLine) } as unknown as NodeJS.WritableStream;
  const log = createLogger({ level: 'info', destination });
  readiness = createReadiness({ database });
  const inner = createApp({ db: database.db, config }, { graphqlPlugins: [metrics.graphqlPlugin()] });
  app = observe(inner, { log, metrics, metricsAccess: { mode: 'on' }, readiness });
});

afterAll(async () => {
  await database?.close();
});

describe('request logs', () => {
  it('logs one line per request with the route template, the caller and the status, and never the token', async () => {
    const response = await get(`/v1/orgs/${org.organizationId}`, { authorization: `Bearer ${org.admin.token}` });
    expect(response.status).toBe(200);
    const id = response.headers.get('x-request-id')!;
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    const line = requestLine(id);
    expect(line).toMatchObject({ method: 'GET', route: '/v1/orgs/:organizationId', status: 200, caller: org.admin.userId });
    expect(typeof line.ms).toBe('number');
    expect(JSON.stringify(lines)).not.toContain(org.admin.token);
    expect(JSON.stringify(line)).not.toContain(org.organizationId);
  });

  it('names the GraphQL operation', async () => {
    const response = await graphql('query WhoAmI { viewer { user { displayName } } }', org.admin.token);
    expect(response.status).toBe(200);
    expect(requestLine(response.headers.get('x-request-id')!)).toMatchObject({ route: '/graphql', operation: 'WhoAmI', caller: org.admin.userId });
  });

  it('keeps a sane incoming X-Request-Id and replaces one that could forge a log line', async () => {
    const kept = await get('/health', { 'x-request-id': 'edge-7f3a.42' });
    expect(kept.headers.get('x-request-id')).toBe('edge-7f3a.42');
    expect(requestLine('edge-7f3a.42').route).toBe('/health');

    const forged = await get('/health', { 'x-request-id': 'a"}{"level":60' });
    expect(forged.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('labels what is served outside the REST router by its kind: the reference, GraphiQL assets, integration endpoints', async () => {
    const labels: Record<string, string> = {
      '/v1/docs': '/v1/docs',
      '/v1/openapi.json': '/v1/openapi.json',
      '/graphql/assets/no-such-asset.js': '/graphql/assets/*',
      '/integration-assets/x/y.png': '/integration-assets/*',
      '/v1/integrations/some-app/integration/hook': '/v1/integrations/:integrationName/…/integration/*',
      '/v1/integrations/some-app/installations/i1/spaces/s1/integration': '/v1/integrations/:integrationName/…/integration/*',
      '/o/org1/s/space1': 'app:space',
      '/o/org1/s/space1/~/changes/3': 'app:changeRequest',
    };
    for (const [path, label] of Object.entries(labels)) {
      const response = await get(path);
      await response.arrayBuffer();
      expect(requestLine(response.headers.get('x-request-id')!).route, path).toBe(label);
    }
  });

  it('labels unknown paths alike, so they cannot grow the metrics or the log without bound', async () => {
    const response = await get('/no/such/thing');
    expect(response.status).toBe(404);
    expect(requestLine(response.headers.get('x-request-id')!).route).toBe('unmatched');
  });
});

describe('internal errors', () => {
  it('quotes in the 500 body the request id under which the error and the request are logged', async () => {
    // A real fault: the table the route reads is gone.
    await database.executeSql('alter table spaces rename to spaces_away', []);
    try {
      const response = await get(`/v1/orgs/${org.organizationId}/spaces`, { authorization: `Bearer ${org.admin.token}` });
      expect(response.status).toBe(500);
      const id = response.headers.get('x-request-id')!;
      const body = (await response.json()) as { error: { code: number; message: string } };
      expect(body).toEqual({ error: { code: 500, message: `Internal server error (request id ${id})` } });
      const error = lines.find((l) => l.reqId === id && l.msg === 'internal error');
      expect(error?.level).toBe(50);
      expect(JSON.stringify(error?.err)).toContain('spaces');
      expect(requestLine(id)).toMatchObject({ status: 500, route: '/v1/orgs/:organizationId/spaces' });

      const masked = await graphql('query Spaces { viewer { organizations { edges { node { spaces { edges { node { title } } } } } } } }', org.admin.token);
      const gqlId = masked.headers.get('x-request-id')!;
      const result = (await masked.json()) as { errors: { message: string; extensions: Record<string, unknown> }[] };
      expect(result.errors[0].extensions).toMatchObject({ code: 'INTERNAL_SERVER_ERROR', requestId: gqlId });
      expect(result.errors[0].message).not.toContain('spaces_away');
      expect(lines.filter((l) => l.reqId === gqlId && l.msg === 'internal error')).toHaveLength(1);
    } finally {
      await database.executeSql('alter table spaces_away rename to spaces', []);
    }
  });
});

describe('/metrics', () => {
  it('exposes request latency by route template and GraphQL operation latency after requests', async () => {
    await get(`/v1/orgs/${org.organizationId}`, { authorization: `Bearer ${org.admin.token}` });
    await graphql('query WhoAmI { viewer { user { displayName } } }', org.admin.token);
    const response = await get('/metrics');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/plain');
    const text = await response.text();
    expect(text).toMatch(/^http_request_duration_seconds_bucket\{le="0.005",method="GET",route="\/v1\/orgs\/:organizationId",status="200"\} \d+$/m);
    expect(text).toMatch(/^http_request_duration_seconds_count\{method="POST",route="\/graphql",status="200"\} [1-9]\d*$/m);
    expect(text).toMatch(/^graphql_envelop_phase_execute_count\{operationName="WhoAmI",operationType="query"\} [1-9]\d*$/m);
    expect(text).toMatch(/^process_cpu_user_seconds_total \d/m);
  });

  it('counts SQL statements and is refused without the token when a token is set', async () => {
    const guarded = observe(createApp({ db: database.db, config }), {
      log: createLogger({ level: 'silent' }),
      metrics: (() => {
        const m = createMetrics();
        m.countStatements(database.counter);
        return m;
      })(),
      metricsAccess: { mode: 'token', token: 'scrape-secret-0123456789' },
    });
    const refused = await guarded.fetch(new Request(`${ORIGIN}/metrics`));
    expect(refused.status).toBe(401);
    expect(await refused.json()).toEqual({ error: { code: 401, message: 'The metrics token is missing or wrong' } });
    const allowed = await guarded.fetch(new Request(`${ORIGIN}/metrics`, { headers: { authorization: 'Bearer scrape-secret-0123456789' } }));
    expect(allowed.status).toBe(200);
    const count = Number(/^db_statements_total (\d+)$/m.exec(await allowed.text())?.[1]);
    expect(count).toBeGreaterThan(0);
    expect(count).toBe(database.counter.count);
  });

  it('is not served by a server started without METRICS, in development as in production', async () => {
    for (const env of [{}, { NODE_ENV: 'development' }, { NODE_ENV: 'production' }]) {
      const started = observe(createApp({ db: database.db, config }), { log: createLogger({ level: 'silent' }), metrics: createMetrics(), metricsAccess: loadObservabilityConfig(env).metrics });
      expect((await started.fetch(new Request(`${ORIGIN}/metrics`))).status).toBe(404);
    }
  });

  it('carries the security headers of every other answer, as do /health, /ready and a refused scrape', async () => {
    const guarded = observe(createApp({ db: database.db, config }), {
      log: createLogger({ level: 'silent' }),
      metrics: createMetrics(),
      metricsAccess: { mode: 'token', token: 'scrape-secret-0123456789' },
      https: true,
    });
    const answers = [await get('/metrics'), await get('/health'), await get('/ready'), await guarded.fetch(new Request(`${ORIGIN}/metrics`))];
    for (const res of answers) {
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('referrer-policy')).toBe('no-referrer');
      expect(res.headers.get('x-frame-options')).toBe('DENY');
      expect(res.headers.get('content-security-policy')).toBe("default-src 'none'; frame-ancestors 'none'");
    }
    expect(answers[0].headers.get('strict-transport-security')).toBeNull();
    expect(answers[3].headers.get('strict-transport-security')).toMatch(/^max-age=\d+/);
  });

  it('is not served at all when off', async () => {
    const off = observe(createApp({ db: database.db, config }), { log: createLogger({ level: 'silent' }), metrics: createMetrics(), metricsAccess: { mode: 'off' } });
    expect((await off.fetch(new Request(`${ORIGIN}/metrics`))).status).toBe(404);
  });
});

describe('/health and /ready', () => {
  it('/ready is 200 with every check passing, 503 once draining, while /health stays 200', async () => {
    const ready = await get('/ready');
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ ready: true, checks: { draining: false, database: 'ok', migrations: 'ok', jobQueue: 'not run here' } });
    readiness.draining = true;
    try {
      const draining = await get('/ready');
      expect(draining.status).toBe(503);
      expect(((await draining.json()) as { checks: { draining: boolean } }).checks.draining).toBe(true);
      expect((await get('/health')).status).toBe(200);
    } finally {
      readiness.draining = false;
    }
  });

  it('/ready is 503 when the database does not answer', async () => {
    const other = await createTestDatabase();
    await other.close();
    const report = await createReadiness({ database: other }).check();
    expect(report.ready).toBe(false);
    expect(report.checks.database).toMatch(/^unreachable: /);
  });
});
