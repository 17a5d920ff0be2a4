import { request as httpRequest } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { getIntrospectionQuery } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOrganization, type OrgFixture } from '../support/factories';
import { startTestApp, TEST_ORIGIN, type TestApp } from '../support/clients';

const ALLOWED = 'https://app.example.com';
const OTHER = 'https://evil.example.net';
const BODY_LIMIT = 64 * 1024;

let t: TestApp;
let acme: OrgFixture;
let server: { url: string; stop(): Promise<void> };

beforeAll(async () => {
  t = await startTestApp({ http: { corsOrigins: [ALLOWED], bodyLimitBytes: BODY_LIMIT } });
  acme = await buildOrganization(t.db, 'Http');
  server = await t.serve();
});
afterAll(async () => {
  await server.stop();
  await t.close();
});

const call = (path: string, init: RequestInit & { headers?: Record<string, string> } = {}) =>
  t.app.fetch(new Request(`${TEST_ORIGIN}${path}`, init));
const graphqlPost = (query: string, headers: Record<string, string> = {}) =>
  call('/graphql', { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json', ...headers }, body: JSON.stringify({ query }) });
const bearer = () => ({ authorization: `Bearer ${acme.admin.token}` });

describe('CORS', () => {
  it.each(['/v1/user', '/graphql'])('lets an allowed origin read %s, without credentials', async (path) => {
    const res = path === '/graphql' ? await graphqlPost('{ viewer { user { id } } }', { origin: ALLOWED, ...bearer() }) : await call(path, { headers: { origin: ALLOWED, ...bearer() } });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe(ALLOWED);
    expect(res.headers.get('access-control-allow-credentials')).toBeNull();
    expect(res.headers.get('vary')).toMatch(/Origin/);
  });

  it.each(['/v1/user', '/graphql'])('gives another origin no CORS header on %s', async (path) => {
    const res = path === '/graphql' ? await graphqlPost('{ viewer { user { id } } }', { origin: OTHER, ...bearer() }) : await call(path, { headers: { origin: OTHER, ...bearer() } });
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    expect(res.headers.get('access-control-allow-credentials')).toBeNull();
  });

  it.each(['/v1/orgs', '/graphql'])('answers a preflight to %s from an allowed origin with 204', async (path) => {
    const res = await call(path, {
      method: 'OPTIONS',
      headers: { origin: ALLOWED, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe(ALLOWED);
    expect(res.headers.get('access-control-allow-methods')).toContain('POST');
    expect(res.headers.get('access-control-allow-headers')).toBe('authorization, content-type');
    expect(res.headers.get('access-control-allow-credentials')).toBeNull();
  });

  it.each(['/v1/orgs', '/graphql'])('refuses a preflight to %s from another origin with 403', async (path) => {
    const res = await call(path, { method: 'OPTIONS', headers: { origin: OTHER, 'access-control-request-method': 'POST' } });
    expect(res.status).toBe(403);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    expect(await res.json()).toEqual({ error: { code: 403, message: `Origin ${OTHER} is not allowed to call this server` } });
  });

  it('allows no origin at all when none is configured', async () => {
    const plain = await startTestApp();
    try {
      const res = await plain.app.fetch(new Request(`${TEST_ORIGIN}/v1/orgs`, { method: 'OPTIONS', headers: { origin: ALLOWED, 'access-control-request-method': 'GET' } }));
      expect(res.status).toBe(403);
      const get = await plain.app.fetch(new Request(`${TEST_ORIGIN}/graphql`, { method: 'POST', headers: { origin: ALLOWED, 'content-type': 'application/json' }, body: '{"query":"{ __typename }"}' }));
      expect(get.headers.get('access-control-allow-origin')).toBeNull();
    } finally {
      await plain.close();
    }
  });
});

describe('compression', () => {
  const introspection = JSON.stringify({ query: getIntrospectionQuery() });
  const post = (encoding: string) =>
    call('/graphql', { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json', 'accept-encoding': encoding }, body: introspection });

  it('sends a large GraphQL answer with brotli, or gzip, as the caller accepts', async () => {
    const plain = await (await post('identity')).text();
    expect(plain.length).toBeGreaterThan(10_000);
    const br = await post('gzip, deflate, br');
    expect(br.headers.get('content-encoding')).toBe('br');
    expect(br.headers.get('vary')).toMatch(/Accept-Encoding/);
    const brBytes = Buffer.from(await br.arrayBuffer());
    expect(brBytes.length).toBeLessThan(plain.length / 4);
    expect(brotliDecompressSync(brBytes).toString()).toBe(plain);
    const gz = await post('gzip');
    expect(gz.headers.get('content-encoding')).toBe('gzip');
    expect(gunzipSync(Buffer.from(await gz.arrayBuffer())).toString()).toBe(plain);
  });

  it('leaves a small answer and a caller that accepts no encoding alone', async () => {
    const small = await call('/v1/user', { headers: { ...bearer(), 'accept-encoding': 'br' } });
    expect(small.headers.get('content-encoding')).toBeNull();
    expect((await small.json()).id).toBe(acme.admin.userId);
    const refused = await post('br;q=0, gzip;q=0');
    expect(refused.headers.get('content-encoding')).toBeNull();
  });
});

/** Sends a chunked body, one chunk after the other, until the server answers; never ends it. */
function sendUntilAnswered(path: string, headers: Record<string, string>): Promise<{ status: number; body: any; sent: number }> {
  return new Promise((resolve, reject) => {
    const url = new URL(path, server.url);
    const req = httpRequest(url, { method: 'POST', headers: { ...headers, 'transfer-encoding': 'chunked' } });
    let sent = 0;
    let answered = false;
    const chunk = Buffer.alloc(16 * 1024, 'a');
    const pump = () => {
      // 64 times the limit is far more than any server that reads it all before answering needs.
      if (answered || sent > BODY_LIMIT * 64) return;
      sent += chunk.length;
      if (req.write(chunk)) setImmediate(pump);
      else req.once('drain', pump);
    };
    req.on('response', (res) => {
      answered = true;
      const parts: Buffer[] = [];
      res.on('data', (part: Buffer) => parts.push(part));
      res.on('end', () => {
        req.destroy();
        resolve({ status: res.statusCode!, body: JSON.parse(Buffer.concat(parts).toString()), sent });
      });
    });
    req.on('error', (error) => (answered ? undefined : reject(error)));
    pump();
  });
}

describe('request body limit', () => {
  it('answers 413 to a chunked REST body before it is sent in full', async () => {
    const res = await sendUntilAnswered(`/v1/orgs/${acme.organizationId}/spaces`, { ...bearer(), 'content-type': 'application/json' });
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ error: { code: 413, message: `The request body is larger than ${BODY_LIMIT} bytes, the most this server accepts here` } });
    expect(res.sent).toBeLessThan(BODY_LIMIT * 64);
  });

  it('answers 413 to a chunked GraphQL body before it is sent in full, in GraphQL shape', async () => {
    const res = await sendUntilAnswered('/graphql', { ...bearer(), 'content-type': 'application/json', accept: 'application/graphql-response+json' });
    expect(res.status).toBe(413);
    expect(res.body.errors[0].extensions.code).toBe('REQUEST_ENTITY_TOO_LARGE');
    expect(res.sent).toBeLessThan(BODY_LIMIT * 64);
  });

  it('answers 413 to a declared length over the limit without reading, and writes nothing', async () => {
    const before = await t.rest('GET', `/v1/orgs/${acme.organizationId}/spaces`, { token: acme.admin.token });
    const body = JSON.stringify({ title: 'x'.repeat(BODY_LIMIT) });
    const res = await call(`/v1/orgs/${acme.organizationId}/spaces`, {
      method: 'POST',
      headers: { ...bearer(), 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) },
      body,
    });
    expect(res.status).toBe(413);
    const after = await t.rest('GET', `/v1/orgs/${acme.organizationId}/spaces`, { token: acme.admin.token });
    expect(after.body.items).toHaveLength(before.body.items.length);
  });

  it('takes a multipart GraphQL request over the body limit, under the upload limit', async () => {
    const form = new FormData();
    form.set('operations', JSON.stringify({ query: '{ __typename }', variables: { pad: 'x'.repeat(BODY_LIMIT * 2) } }));
    form.set('map', '{}');
    const res = await call('/graphql', { method: 'POST', headers: { ...bearer(), accept: 'application/graphql-response+json' }, body: form });
    expect(res.status).toBe(200);
    expect((await res.json()).data).toEqual({ __typename: 'Query' });
  });

  it('takes a body just under the limit', async () => {
    const res = await call(`/v1/orgs/${acme.organizationId}/spaces`, {
      method: 'POST',
      headers: { ...bearer(), 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'Under the limit', pad: 'x'.repeat(BODY_LIMIT - 100) }),
    });
    expect(res.status).toBeLessThan(500);
    expect(res.status).not.toBe(413);
  });
});

describe('security headers', () => {
  it('sets them on REST, GraphQL and unknown routes', async () => {
    for (const res of [await call('/v1/user', { headers: bearer() }), await graphqlPost('{ __typename }'), await call('/nowhere')]) {
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('referrer-policy')).toBe('no-referrer');
      expect(res.headers.get('x-frame-options')).toBe('DENY');
      expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      expect(res.headers.get('strict-transport-security')).toBeNull();
    }
  });

  it('adds Strict-Transport-Security only when the public URL is https', async () => {
    const secure = await startTestApp({ publicUrl: 'https://docs.example.com' });
    try {
      const res = await secure.app.fetch(new Request(`${TEST_ORIGIN}/health`));
      expect(res.headers.get('strict-transport-security')).toMatch(/^max-age=\d+/);
    } finally {
      await secure.close();
    }
  });
});

describe('GraphQL for callers without a token', () => {
  it('refuses a bad token with 401 in GraphQL shape', async () => {
    const res = await graphqlPost('{ __typename }', { authorization: 'Bearer not-a-token' });
    expect(res.status).toBe(401);
    const body = await res.json();
    expect(body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
    expect(body.error).toBeUndefined();
  });

  it('suggests field names only to signed-in callers', async () => {
    const anonymous = await (await graphqlPost('{ viewr { user { id } } }')).json();
    expect(anonymous.errors[0].message).toBe('Cannot query field "viewr" on type "Query".');
    const signedIn = await (await graphqlPost('{ viewr { user { id } } }', bearer())).json();
    expect(signedIn.errors[0].message).toContain('Did you mean "viewer"?');
    // Asked again, the anonymous caller does not get the signed-in caller's cached answer.
    const again = await (await graphqlPost('{ viewr { user { id } } }')).json();
    expect(again.errors[0].message).not.toContain('Did you mean');
  });

  it('lets anyone introspect by default, and only signed-in callers when the setting says so', async () => {
    expect((await (await graphqlPost('{ __schema { queryType { name } } }')).json()).data.__schema.queryType.name).toBe('Query');
    const closed = await startTestApp({ http: { anonymousIntrospection: false } });
    try {
      const ask = (headers: Record<string, string>) =>
        closed.app.fetch(new Request(`${TEST_ORIGIN}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json', ...headers }, body: JSON.stringify({ query: '{ __schema { queryType { name } } }' }) }));
      const anonymous = await (await ask({})).json();
      expect(anonymous.data).toBeUndefined();
      expect(anonymous.errors[0].message).toMatch(/introspection/i);
      const org = await buildOrganization(closed.db, 'Introspect');
      const signedIn = await (await ask({ authorization: `Bearer ${org.admin.token}` })).json();
      expect(signedIn.data.__schema.queryType.name).toBe('Query');
    } finally {
      await closed.close();
    }
  });
});
