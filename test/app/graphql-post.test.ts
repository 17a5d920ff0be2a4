import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOrganization, type OrgFixture } from '../support/factories';
import { startTestApp, TEST_ORIGIN, type TestApp } from '../support/clients';
import { gid } from '../support/doors';

/**
 * A JSON POST is answered by the short path of src/app/graphql-post.ts; the same request sent as
 * `application/graphql+json` (which Quire reads exactly as JSON) takes Yoga's whole way. Whatever
 * the body and the Accept header, a client must not be able to tell them apart.
 */
let t: TestApp;
let acme: OrgFixture;

beforeAll(async () => {
  t = await startTestApp();
  acme = await buildOrganization(t.db, 'Short path');
});
afterAll(() => t.close());

async function answer(contentType: string, body: string, accept: string | undefined) {
  const headers: Record<string, string> = { 'content-type': contentType, authorization: `Bearer ${acme.admin.token}` };
  if (accept !== undefined) headers.accept = accept;
  const res = await t.app.fetch(new Request(`${TEST_ORIGIN}/graphql`, { method: 'POST', headers, body }));
  const text = await res.text();
  return { status: res.status, type: res.headers.get('content-type'), body: text };
}

const bodies: Record<string, string> = {
  'a query': JSON.stringify({ query: '{ viewer { user { displayName } } }' }),
  'variables and an operation name': JSON.stringify({
    query: 'query A { viewer { user { id } } } query B($id: ID!) { organization(id: $id) { title } }',
    operationName: 'B',
    variables: { id: 'ORG' },
  }),
  'a missing organization': JSON.stringify({ query: 'query ($id: ID!) { organization(id: $id) { title } }', variables: { id: 'nope' } }),
  'a field that does not exist': JSON.stringify({ query: '{ nope }' }),
  'a syntax error': JSON.stringify({ query: '{ viewer {' }),
  'an unknown parameter': JSON.stringify({ query: '{ __typename }', surprise: 1 }),
  'no query': JSON.stringify({ variables: {} }),
  'variables as a list': JSON.stringify({ query: '{ __typename }', variables: [1] }),
  'not JSON': '{"query": ',
  'a list of operations': JSON.stringify([{ query: '{ __typename }' }]),
  'an unsafe variable': JSON.stringify({ query: 'query ($id: ID!) { organization(id: $id) { title } }', variables: { id: 'a\u0000b' } }),
  'an undefined variable': JSON.stringify({ query: 'query ($id: ID!) { organization(id: $id) { title } }' }),
  'a subscription': JSON.stringify({ query: 'subscription { __typename }' }),
  'a mutation with bad input': JSON.stringify({ query: 'mutation { organizationUpdate(input: { id: "ORG", title: "" }) { __typename } }' }),
};

const accepts = [
  undefined,
  '*/*',
  'application/json',
  'application/graphql-response+json',
  'application/graphql-response+json, application/json;q=0.9',
  'application/json, application/graphql-response+json',
  'text/event-stream',
  'application/json; charset=iso-8859-1',
  'text/html',
];

describe('a JSON POST to /graphql', () => {
  for (const [name, template] of Object.entries(bodies)) {
    it(`answers ${name} exactly as Yoga does, whatever it accepts`, async () => {
      const body = template.replaceAll('ORG', acme.organizationId);
      for (const accept of accepts) {
        const short = await answer('application/json', body, accept);
        const whole = await answer('application/graphql+json', body, accept);
        expect({ accept, ...short }).toEqual({ accept, ...whole });
      }
    });
  }

  it('opens a live subscription as Yoga does, whatever it accepts', async () => {
    const space = await t.rest('POST', `/v1/orgs/${acme.organizationId}/spaces`, { token: acme.admin.token, body: { title: 'Live' } });
    const body = JSON.stringify({ query: 'subscription ($s: ID!) { commentEvents(spaceId: $s) { kind } }', variables: { s: gid('Space', space.body.id) } });
    const head = async (contentType: string, accept: string | undefined) => {
      const headers: Record<string, string> = { 'content-type': contentType, authorization: `Bearer ${acme.admin.token}` };
      if (accept !== undefined) headers.accept = accept;
      const res = await t.app.fetch(new Request(`${TEST_ORIGIN}/graphql`, { method: 'POST', headers, body }));
      // A stream stays open until the client leaves (Yoga's event stream cannot be left before it started).
      const reader = res.body?.getReader();
      await reader?.read();
      await reader?.cancel();
      return { accept, status: res.status, type: res.headers.get('content-type') };
    };
    for (const accept of accepts) expect(await head('application/json', accept)).toEqual(await head('application/graphql+json', accept));
    expect((await head('application/json', 'text/event-stream')).type).toBe('text/event-stream');
  });

  it('answers data for a JSON POST with a charset', async () => {
    const res = await answer('application/json; charset=utf-8', bodies['a query'], undefined);
    expect(res.status).toBe(200);
    expect(res.type).toBe('application/json; charset=utf-8');
    expect(JSON.parse(res.body).data.viewer.user.displayName).toBe(`Admin of Short path`);
  });
});
