/**
 * Deeply nested input is refused at the door, before anything walks it: a REST body, GraphQL
 * variables (POST, GET, multipart) and the GraphQL document itself. A 59 KB body nested 30,000 deep
 * used to hold the event loop for 8 to 18 s (a path copied at every level), so every request of the
 * process waited; it must now be a quick 400 while the server keeps answering.
 */
import LZString from 'lz-string';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QUERY_LIMITS } from '../../src/graphql/cost';
import { MAX_JSON_DEPTH } from '../../src/lib/json-input';
import { startTestApp, TEST_ORIGIN, type TestApp } from '../support/clients';
import { buildOrganization, type OrgFixture } from '../support/factories';

let t: TestApp;
let acme: OrgFixture;

beforeAll(async () => {
  t = await startTestApp();
  acme = await buildOrganization(t.db, 'Deep');
});
afterAll(() => t.close());

/** An array nested `levels` deep, as text: JSON.stringify itself would overflow the stack. */
const nested = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);

const REST_TOO_DEEP = `The request body nests objects and arrays more than ${MAX_JSON_DEPTH} levels deep; the limit is ${MAX_JSON_DEPTH}`;
const GRAPHQL_TOO_DEEP = `The request (its variables or extensions) nests objects and arrays more than ${MAX_JSON_DEPTH} levels deep; the limit is ${MAX_JSON_DEPTH}`;
/** Generous: the bug took 8 s or more for one request; these take milliseconds. */
const QUICK_MS = 2_000;

function send(path: string, init: { method?: string; token?: string; body?: string | FormData; contentType?: string } = {}) {
  const headers: Record<string, string> = { accept: 'application/graphql-response+json' };
  if (init.token) headers.authorization = `Bearer ${init.token}`;
  if (typeof init.body === 'string') headers['content-type'] = init.contentType ?? 'application/json';
  return t.app.fetch(new Request(`${TEST_ORIGIN}${path}`, { method: init.method ?? (init.body === undefined ? 'GET' : 'POST'), headers, body: init.body }));
}

async function answer(response: Promise<Response>) {
  const res = await response;
  return { status: res.status, body: await res.json() };
}

async function spaceCount(): Promise<number> {
  const res = await t.rest('GET', `/v1/orgs/${acme.organizationId}/spaces`, { token: acme.admin.token });
  return res.body.items.length;
}

/** A REST route that keeps arbitrary JSON: an integration's configuration schema, whose `default` may be anything. */
function publishBody(name: string, depth: number): string {
  // The body, configurations, account, properties and x are five levels; `default` brings the rest.
  return `{"organization":"${acme.organizationId}","title":"Deep ${name}","description":"","scopes":["space:content:read"],"visibility":"private",` +
    `"script":"export default { fetch() { return new Response('ok'); } };","configurations":{"account":{"properties":{"x":{"type":"array","default":${nested(depth - 5)}}}}}}`;
}

describe('REST', () => {
  it('refuses a body nested 30,000 and 500,000 deep with a quick 400 (401 without a token), writing nothing', async () => {
    const before = await spaceCount();
    const started = performance.now();
    const path = `/v1/orgs/${acme.organizationId}/spaces`;
    const bodies = [`{"title":"Deep","pad":${nested(30_000)}}`, nested(500_000)];
    expect(bodies[1]).toHaveLength(1_000_000); // the body limit, not over it
    for (const body of bodies) {
      expect(await answer(send(path, { token: acme.admin.token, body }))).toEqual({ status: 400, body: { error: { code: 400, message: REST_TOO_DEEP } } });
      // Authentication comes first, and the body is not even read.
      expect((await send(path, { body })).status).toBe(401);
    }
    expect(performance.now() - started).toBeLessThan(QUICK_MS);
    expect(await spaceCount()).toBe(before);
  });

  it(`takes a body nested ${MAX_JSON_DEPTH} deep and refuses one level more`, async () => {
    const atLimit = await answer(send('/v1/integrations/deep-at-limit', { token: acme.admin.token, body: publishBody('at', MAX_JSON_DEPTH) }));
    expect(atLimit.status).toBe(200);
    const over = await answer(send('/v1/integrations/deep-over-limit', { token: acme.admin.token, body: publishBody('over', MAX_JSON_DEPTH + 1) }));
    expect(over).toEqual({ status: 400, body: { error: { code: 400, message: REST_TOO_DEEP } } });
    expect((await t.rest('GET', '/v1/integrations/deep-over-limit', { token: acme.admin.token })).status).toBe(404);
  });

});

describe('JSON inside other input', () => {
  it('refuses an integration render request that decodes to a value nested 100,000 deep, from 1.5 KB of URL', async () => {
    expect((await answer(send('/v1/integrations/deep-render', { token: acme.admin.token, body: publishBody('render', 10) }))).status).toBe(200);
    const installed = await send('/v1/integrations/deep-render/installations', { token: acme.admin.token, body: JSON.stringify({ organization: acme.organizationId }) });
    expect(installed.status).toBe(201);
    const request = (organizationId: string, state: string) =>
      LZString.compressToEncodedURIComponent(`{"componentId":"x","props":{},"context":{"type":"configuration_account","organizationId":"${organizationId}","theme":"light"},"state":{"a":${state}}}`);
    const deep = request(acme.organizationId, nested(100_000));
    expect(deep.length).toBeLessThan(2_000);
    const res = await answer(send(`/v1/integrations/deep-render/render?request=${deep}`, { token: acme.admin.token }));
    expect(res).toEqual({ status: 400, body: { error: { code: 400, message: `request: it nests objects and arrays more than ${MAX_JSON_DEPTH} levels deep; the limit is ${MAX_JSON_DEPTH}` } } });
    // Within the limit it goes on, here to find the integration not installed in that organization.
    const shallow = await answer(send(`/v1/integrations/deep-render/render?request=${request('elsewhere', nested(MAX_JSON_DEPTH - 3))}`, { token: acme.admin.token }));
    expect(shallow.body.error.message).toMatch(/not installed/);
  });
});

describe('GraphQL variables', () => {
  const post = (variables: string, token?: string) => answer(send('/graphql', { token, body: `{"query":"{ __typename }","variables":${variables}}` }));
  const refusedDeep = (res: { status: number; body: any }) => {
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ errors: [{ message: GRAPHQL_TOO_DEEP, extensions: { code: 'BAD_USER_INPUT' } }] });
  };

  it('refuse variables nested 30,000 and 500,000 deep with a quick 400, anonymous or not', async () => {
    const started = performance.now();
    refusedDeep(await post(`{"pad":${nested(30_000)}}`));
    refusedDeep(await post(`{"pad":${nested(499_960)}}`));
    refusedDeep(await post(`{"pad":${nested(30_000)}}`, acme.admin.token));
    expect(performance.now() - started).toBeLessThan(QUICK_MS);
  });

  it(`take variables nested ${MAX_JSON_DEPTH} deep (the variables object is level 1) and refuse one level more`, async () => {
    const atLimit = await post(`{"pad":${nested(MAX_JSON_DEPTH - 1)}}`);
    expect(atLimit.status).toBe(200);
    expect(atLimit.body.data).toEqual({ __typename: 'Query' });
    refusedDeep(await post(`{"pad":${nested(MAX_JSON_DEPTH)}}`));
  });

  it('are bounded the same in a GET query string', async () => {
    const get = (variables: string) => answer(send(`/graphql?query=${encodeURIComponent('{ __typename }')}&variables=${encodeURIComponent(variables)}`));
    const started = performance.now();
    refusedDeep(await get(`{"pad":${nested(30_000)}}`));
    expect(performance.now() - started).toBeLessThan(QUICK_MS);
    expect((await get(`{"pad":${nested(MAX_JSON_DEPTH - 1)}}`)).body.data).toEqual({ __typename: 'Query' });
    refusedDeep(await get(`{"pad":${nested(MAX_JSON_DEPTH)}}`));
    const notJson = await get('{"pad":');
    expect(notJson.status).toBe(400);
    expect(notJson.body.errors[0]).toMatchObject({ message: 'Query parameter "variables" is not valid JSON', extensions: { code: 'BAD_REQUEST' } });
  });

  it('are bounded the same in a multipart request, file paths included', async () => {
    const multipart = (operations: string, map = '{}') => {
      const form = new FormData();
      form.set('operations', operations);
      form.set('map', map);
      form.set('0', new Blob(['x']), 'x.txt');
      return answer(send('/graphql', { body: form }));
    };
    const started = performance.now();
    refusedDeep(await multipart(`{"query":"{ __typename }","variables":{"pad":${nested(30_000)}}}`));
    refusedDeep(await multipart('{"query":"{ __typename }","variables":{}}', JSON.stringify({ 0: [`variables.${'a.'.repeat(30_000)}file`] })));
    expect(performance.now() - started).toBeLessThan(QUICK_MS);
    const atLimit = await multipart(`{"query":"{ __typename }","variables":{"pad":${nested(MAX_JSON_DEPTH - 1)}}}`, JSON.stringify({ 0: ['variables.file'] }));
    expect(atLimit.body.data).toEqual({ __typename: 'Query' });
  });
});

describe('the GraphQL document', () => {
  const nestingError = `The query nests braces, brackets and parentheses more than ${QUERY_LIMITS.nesting} levels deep; the limit is ${QUERY_LIMITS.nesting}.`;
  /** A mutation whose input holds a list literal: `{`, `(` and the input's `{` are three levels. */
  const mutation = (depth: number) =>
    `mutation { integrationInstallationUpdate(input: { installationId: "none", configuration: ${nested(depth - 3)} }) { clientMutationId } }`;

  it('refuses a list literal nested 2,400 deep (it overflowed the parser: an internal error) with a 400', async () => {
    const res = await t.graphql(`{ node(id: ${nested(2_400)}) { id } }`, undefined, null);
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([{ message: nestingError, extensions: { code: 'QUERY_TOO_COMPLEX' } }]);
  });

  it(`parses a document nested ${QUERY_LIMITS.nesting} deep and refuses one level more`, async () => {
    const atLimit = await t.graphql(mutation(QUERY_LIMITS.nesting), undefined, acme.admin.token);
    expect(atLimit.body.errors?.[0]?.extensions?.code).not.toBe('QUERY_TOO_COMPLEX');
    const over = await t.graphql(mutation(QUERY_LIMITS.nesting + 1), undefined, acme.admin.token);
    expect(over.status).toBe(400);
    expect(over.body.errors).toEqual([{ message: nestingError, extensions: { code: 'QUERY_TOO_COMPLEX' } }]);
  });

  it('answers a query nested 500,000 deep with a quick 4xx, and one within the size limits too', async () => {
    const deepQuery = (levels: number) => '{a'.repeat(levels) + '}'.repeat(levels);
    const started = performance.now();
    // 1.5 MB: over the body limit as JSON, over the size of a form field in a multipart request.
    expect((await send('/graphql', { body: JSON.stringify({ query: deepQuery(500_000) }) })).status).toBe(413);
    const form = new FormData();
    form.set('operations', JSON.stringify({ query: deepQuery(500_000) }));
    expect((await send('/graphql', { body: form })).status).toBe(400);
    // Under the body limit, over the query size limit.
    const large = await answer(send('/graphql', { body: JSON.stringify({ query: deepQuery(330_000) }) }));
    expect(large.status).toBe(400);
    expect(large.body.errors[0]).toMatchObject({ message: expect.stringMatching(/bytes long/), extensions: { code: 'QUERY_TOO_COMPLEX' } });
    // Under the query size limit: refused for its nesting before graphql-js parses it.
    const small = await answer(send('/graphql', { body: JSON.stringify({ query: deepQuery(33_000) }) }));
    expect(small).toEqual({ status: 400, body: { errors: [{ message: nestingError, extensions: { code: 'QUERY_TOO_COMPLEX' } }] } });
    expect(performance.now() - started).toBeLessThan(QUICK_MS);
  });
});

describe('the rest of the server', () => {
  it('keeps answering /health while deep requests are in flight', async () => {
    const server = await t.serve();
    try {
      const deep = (path: string, body: string, token?: string) =>
        fetch(`${server.url}${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
          body,
        }).then((res) => res.status);
      const started = performance.now();
      const inFlight = Promise.all([
        deep(`/v1/orgs/${acme.organizationId}/spaces`, `{"title":"Deep","pad":${nested(30_000)}}`, acme.admin.token),
        deep(`/v1/orgs/${acme.organizationId}/spaces`, nested(40_000), acme.admin.token),
        deep('/graphql', `{"query":"{ __typename }","variables":{"pad":${nested(30_000)}}}`),
        deep('/graphql', `{"query":"{ __typename }","variables":{"pad":${nested(30_000)}}}`),
      ]);
      let done = false;
      void inFlight.finally(() => (done = true));
      const healthTimes: number[] = [];
      do {
        const asked = performance.now();
        expect((await fetch(`${server.url}/health`)).status).toBe(200);
        healthTimes.push(performance.now() - asked);
      } while (!done);
      expect(await inFlight).toEqual([400, 400, 400, 400]);
      expect(Math.max(...healthTimes)).toBeLessThan(QUICK_MS);
      expect(performance.now() - started).toBeLessThan(QUICK_MS);
    } finally {
      await server.stop();
    }
  });
});
