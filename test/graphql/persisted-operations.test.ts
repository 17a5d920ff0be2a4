import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  commitMutation,
  Environment,
  fetchQuery,
  getSelector,
  Network,
  RecordSource,
  Store,
  type ConcreteRequest,
  type ReaderFragment,
} from 'relay-runtime';
import { buildOrganization, type OrgFixture } from '../support/factories';
import { startTestApp, type TestApp } from '../support/clients';
import { gid } from '../support/doors';
import { compileRelayApp, relayArtifact } from '../support/relay';

/**
 * A Relay app's own build: the real relay-compiler compiles the queries of
 * test/fixtures/relay-app against Quire's printed schema.graphql with a local `persistConfig`,
 * Quire starts with the file it writes, and the operations run through a real relay-runtime
 * Environment whose network layer sends what Relay's documentation has it send: the id, never the
 * text. Compiled in a temporary folder, so nothing generated lands in the repository.
 */
let relayApp: string;
let persistedFile: string;
const artifacts: Record<string, ConcreteRequest> = {};
let spaceFragment: ReaderFragment;

function compileApp(): void {
  relayApp = compileRelayApp('relay-app');
  persistedFile = join(relayApp, 'persisted-queries.json');
}

async function loadArtifacts(): Promise<void> {
  for (const name of ['ViewerQuery', 'OrganizationSpacesQuery', 'SpaceCreateMutation', 'EverythingQuery']) {
    artifacts[name] = await relayArtifact<ConcreteRequest>(relayApp, name);
  }
  spaceFragment = await relayArtifact<ReaderFragment>(relayApp, 'OrganizationSpaces_space');
}

/** What a Relay app builds: an Environment whose fetch posts `{ doc_id, variables }` to /graphql. */
function relayEnvironment(url: string, token: string): Environment {
  const network = Network.create(async (params, variables) => {
    const response = await fetch(`${url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ doc_id: params.id, variables }),
    });
    return response.json();
  });
  return new Environment({ network, store: new Store(new RecordSource()) });
}

function mutate(environment: Environment, mutation: ConcreteRequest, variables: Record<string, unknown>): Promise<any> {
  return new Promise((resolve, reject) => {
    commitMutation(environment, { mutation, variables, onCompleted: resolve, onError: reject });
  });
}

/** Relay's refusal of an answer without data keeps the server's errors as its `source`. */
async function relayErrors(run: Promise<unknown>): Promise<{ code: unknown; message: string }[]> {
  const error = (await run.then(
    () => null,
    (e: unknown) => e,
  )) as { source?: { errors: { message: string; extensions?: { code?: unknown } }[] } } | null;
  expect(error?.source, 'Relay should refuse the answer').toBeDefined();
  return error!.source!.errors.map((e) => ({ code: e.extensions?.code, message: e.message }));
}

async function post(url: string, body: unknown, token?: string, contentType = 'application/json') {
  const headers: Record<string, string> = { 'content-type': contentType };
  if (token) headers.authorization = `Bearer ${token}`;
  const response = await fetch(`${url}/graphql`, { method: 'POST', headers, body: JSON.stringify(body) });
  return { status: response.status, body: (await response.json()) as any };
}

const idOf = (name: string) => artifacts[name].params.id as string;

beforeAll(async () => {
  compileApp();
  await loadArtifacts();
});

describe('persisted operations, query text allowed too', () => {
  let t: TestApp;
  let server: { url: string; stop(): Promise<void> };
  let acme: OrgFixture;
  let relay: Environment;

  beforeAll(async () => {
    t = await startTestApp({ persistedOperations: { file: persistedFile, only: false } });
    server = await t.serve();
    acme = await buildOrganization(t.db, 'Relay Co');
    relay = relayEnvironment(server.url, acme.admin.token);
  });
  afterAll(async () => {
    await server?.stop();
    await t?.close();
  });

  it('relay-compiler wrote ids, not text, into the artifacts, and the file Quire loads', () => {
    expect(artifacts.ViewerQuery.params.text).toBeNull();
    const file = JSON.parse(readFileSync(persistedFile, 'utf8')) as Record<string, string>;
    expect(Object.keys(file).sort()).toEqual(['ViewerQuery', 'OrganizationSpacesQuery', 'SpaceCreateMutation', 'EverythingQuery'].map(idOf).sort());
  });

  it('a persisted query answers with real data', async () => {
    const data = (await fetchQuery(relay, artifacts.ViewerQuery, {}).toPromise()) as any;
    expect(data.viewer.user.displayName).toBe('Admin of Relay Co');
  });

  it('a persisted mutation writes, and a persisted query with variables and a fragment reads it back', async () => {
    const created = await mutate(relay, artifacts.SpaceCreateMutation, { input: { organizationId: gid('Organization', acme.organizationId), title: 'Made by Relay' } });
    expect(created.spaceCreate).toMatchObject({ space: { title: 'Made by Relay' }, userErrors: [] });

    const data = (await fetchQuery(relay, artifacts.OrganizationSpacesQuery, { id: acme.organizationId, count: 10 }).toPromise()) as any;
    expect(data.organization.title).toBe('Relay Co');
    expect(data.organization.spaces.totalCount).toBe(1);
    // The fragment's fields are read from Relay's store, as useFragment reads them.
    const spaceRef = data.organization.spaces.edges[0].node;
    const space = relay.lookup(getSelector(spaceFragment, spaceRef) as never).data;
    expect(space).toEqual({ title: 'Made by Relay', viewerCanEdit: true });
  });

  it('an unknown id is refused with PERSISTED_QUERY_NOT_FOUND and 400', async () => {
    const stale = { ...artifacts.ViewerQuery, params: { ...artifacts.ViewerQuery.params, id: '0123456789abcdef0123456789abcdef' } } as ConcreteRequest;
    expect(await relayErrors(fetchQuery(relay, stale, {}).toPromise())).toEqual([
      { code: 'PERSISTED_QUERY_NOT_FOUND', message: 'PersistedQueryNotFound: no persisted operation has this id.' },
    ]);
    const raw = await post(server.url, { doc_id: 'nope', variables: {} }, acme.admin.token);
    expect(raw.status).toBe(400);
    expect(raw.body).toEqual({ errors: [{ message: 'PersistedQueryNotFound: no persisted operation has this id.', extensions: { code: 'PERSISTED_QUERY_NOT_FOUND' } }] });
  });

  it('query text still runs beside the persisted operations', async () => {
    const res = await post(server.url, { query: '{ viewer { user { displayName } } }' }, acme.admin.token);
    expect(res.status).toBe(200);
    expect(res.body.data.viewer.user.displayName).toBe('Admin of Relay Co');
  });

  it('the cost limit refuses a persisted operation run with big variables, and lets small ones through', async () => {
    const small = (await fetchQuery(relay, artifacts.EverythingQuery, { count: 2 }).toPromise()) as any;
    expect(small.viewer.organizations.edges).toHaveLength(1);
    const errors = await relayErrors(fetchQuery(relay, artifacts.EverythingQuery, { count: 100 }).toPromise());
    expect(errors).toHaveLength(1);
    expect(errors[0].code).toBe('QUERY_TOO_COMPLEX');
    expect(errors[0].message).toMatch(/^The query could return up to \d+ fields; the limit is 20000\./);
    const raw = await post(server.url, { doc_id: idOf('EverythingQuery'), variables: { count: 100 } }, acme.admin.token);
    expect(raw.status).toBe(400);
    expect(raw.body.extensions.cost.requested).toBeGreaterThan(20_000);
  });

  it('input checks apply to persisted documents: a variable of the wrong type or an unsafe string is refused before anything runs', async () => {
    const wrongType = await post(server.url, { doc_id: idOf('OrganizationSpacesQuery'), variables: { id: acme.organizationId, count: 'ten' } }, acme.admin.token);
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    const unsafe = await post(server.url, { doc_id: idOf('OrganizationSpacesQuery'), variables: { id: 'a\u0000b', count: 1 } }, acme.admin.token);
    expect(unsafe.status).toBe(400);
    expect(unsafe.body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
  });

  it('the short JSON path and Yoga’s own path answer persisted requests alike', async () => {
    const bodies = [
      { doc_id: idOf('ViewerQuery') },
      { documentId: idOf('OrganizationSpacesQuery'), variables: { id: acme.organizationId, count: 1 } },
      { id: idOf('ViewerQuery'), variables: {} },
      { extensions: { persistedQuery: { version: 1, sha256Hash: idOf('ViewerQuery') } } },
      { doc_id: 'nope' },
      { doc_id: idOf('EverythingQuery'), variables: { count: 100 } },
    ];
    for (const [i, body] of bodies.entries()) {
      const short = await post(server.url, body, acme.admin.token);
      const yogas = await post(server.url, body, acme.admin.token, 'application/graphql+json');
      expect(yogas, JSON.stringify(body)).toEqual(short);
      // The first four name operations that run; the last two are refused.
      expect(short.status, JSON.stringify(body)).toBe(i < 4 ? 200 : 400);
      if (i < 4) expect(short.body.data, JSON.stringify(body)).toBeTruthy();
    }
  });

  it('a GET names the id in the URL, and a persisted mutation is refused over GET', async () => {
    const get = async (params: Record<string, string>) => {
      const response = await fetch(`${server.url}/graphql?${new URLSearchParams(params)}`, {
        headers: { accept: 'application/json', authorization: `Bearer ${acme.admin.token}` },
      });
      return { status: response.status, body: (await response.json()) as any };
    };
    const read = await get({ doc_id: idOf('OrganizationSpacesQuery'), variables: JSON.stringify({ id: acme.organizationId, count: 5 }) });
    expect(read.status).toBe(200);
    expect(read.body.data.organization.title).toBe('Relay Co');
    const write = await get({ doc_id: idOf('SpaceCreateMutation'), variables: JSON.stringify({ input: { organizationId: gid('Organization', acme.organizationId) } }) });
    expect(write.status).toBe(405);
    expect(write.body.errors[0].message).toBe('Can only perform a mutation operation from a POST request.');
  });
});

describe('persisted operations only (QUIRE_PERSISTED_ONLY)', () => {
  let t: TestApp;
  let server: { url: string; stop(): Promise<void> };
  let acme: OrgFixture;

  beforeAll(async () => {
    t = await startTestApp({ persistedOperations: { file: persistedFile, only: true } });
    server = await t.serve();
    acme = await buildOrganization(t.db, 'Locked Co');
  });
  afterAll(async () => {
    await server?.stop();
    await t?.close();
  });

  it('query text is refused with PERSISTED_QUERY_ONLY and 400, introspection included', async () => {
    for (const query of ['{ viewer { user { displayName } } }', '{ __schema { queryType { name } } }']) {
      for (const contentType of ['application/json', 'application/graphql+json']) {
        const res = await post(server.url, { query }, acme.admin.token, contentType);
        expect(res.status).toBe(400);
        expect(res.body).toEqual({
          errors: [
            {
              message: 'PersistedQueryOnly: this server runs only persisted operations; send the id of one (doc_id) instead of query text.',
              extensions: { code: 'PERSISTED_QUERY_ONLY' },
            },
          ],
        });
      }
    }
  });

  it('query text sent beside a persisted id is refused as well', async () => {
    const res = await post(server.url, { doc_id: idOf('ViewerQuery'), query: '{ viewer { user { id } } }' }, acme.admin.token);
    expect(res.status).toBe(400);
    expect(res.body.errors[0].extensions.code).toBe('PERSISTED_QUERY_ONLY');
  });

  it('persisted operations run through Relay', async () => {
    const relay = relayEnvironment(server.url, acme.admin.token);
    const data = (await fetchQuery(relay, artifacts.ViewerQuery, {}).toPromise()) as any;
    expect(data.viewer.user.displayName).toBe('Admin of Locked Co');
    const created = await mutate(relay, artifacts.SpaceCreateMutation, { input: { organizationId: gid('Organization', acme.organizationId), title: 'Locked space' } });
    expect(created.spaceCreate.space.title).toBe('Locked space');
  });

  it('a request with neither text nor id says what it needs', async () => {
    const res = await post(server.url, { variables: {} }, acme.admin.token);
    expect(res.status).toBe(400);
    expect(res.body.errors[0]).toEqual({ message: 'Must provide a persisted operation id (doc_id).', extensions: { code: 'BAD_REQUEST' } });
  });
});
