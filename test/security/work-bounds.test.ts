import { encodeGlobalID } from '@pothos/plugin-relay';
import type { Plugin } from 'graphql-yoga';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, type App } from '../../src/app/app';
import { withDeadline } from '../../src/app/deadline';
import type { RequestContext } from '../../src/context/request-context';
import { startTestApp, TEST_ORIGIN, warmSession, type TestApp } from '../support/clients';
import { buildOrganization, type OrgFixture } from '../support/factories';
import { fillSpaces, pageMarkdown } from '../support/many-pages';

/**
 * The work a request does is bounded by its deadline and by the size of its answer: past the
 * deadline, the caller has its 503 and the server stops working for it; an answer that would be
 * larger than QUIRE_MAX_RESPONSE_BYTES is refused with a 400 as soon as it grows past it, not
 * built and then measured.
 */

const SPACES = 5;
const PAGES = 400;
/** Answers above this many bytes of page text are refused, in this file. */
const CAP = 100_000;
/**
 * The requests that outlive their deadline here take several times longer: rendering 2,000
 * documents, or parsing the links of 4,000 pages.
 */
const DEADLINE_MS = 40;

let t: TestApp;
let acme: OrgFixture;
let spaceIds: string[];
let markdownBytes: number;
/** One space of many more pages, for a REST route that parses every page: its links. */
const HUGE_PAGES = 4_000;
let hugeSpaceId: string;
const largestPage = Math.max(...Array.from({ length: PAGES }, (_, i) => Buffer.byteLength(pageMarkdown(SPACES - 1, i))));

beforeAll(async () => {
  t = await startTestApp({ http: { maxResponseBytes: CAP } });
  acme = await buildOrganization(t.db, 'Bounds');
  spaceIds = [];
  for (let i = 0; i < SPACES; i++) {
    const res = await t.rest('POST', `/v1/orgs/${acme.organizationId}/spaces`, { token: acme.admin.token, body: { title: `Big ${i}` } });
    expect(res.status).toBe(201);
    spaceIds.push(res.body.id);
  }
  markdownBytes = await fillSpaces(t.db, spaceIds, PAGES);
  const huge = await t.rest('POST', `/v1/orgs/${acme.organizationId}/spaces`, { token: acme.admin.token, body: { title: 'Huge' } });
  hugeSpaceId = huge.body.id;
  await fillSpaces(t.db, [hugeSpaceId], HUGE_PAGES);
  await warmSession(t, acme.admin.token);
}, 120_000);
afterAll(() => t.close());

const EVERY_PAGE = (field: string) => `query ($ids: [ID!]!) { nodes(ids: $ids) { ... on Space { content { pages { title ${field} } } } } }`;
const everySpace = () => ({ ids: spaceIds.map((id) => encodeGlobalID('Space', id)) });

function graphqlRequest(query: string, variables: Record<string, unknown>): Request {
  return new Request(`${TEST_ORIGIN}/graphql`, {
    method: 'POST',
    headers: { authorization: `Bearer ${acme.admin.token}`, 'content-type': 'application/json', accept: 'application/graphql-response+json' },
    body: JSON.stringify({ query, variables }),
  });
}

/** A GraphQL plugin that hands over the request's context once execution has ended. */
function executionProbe() {
  let ended!: (ctx: RequestContext) => void;
  const done = new Promise<RequestContext>((resolve) => (ended = resolve));
  const plugin: Plugin = { onExecute: ({ args }) => ({ onExecuteDone: () => ended(args.contextValue as unknown as RequestContext) }) };
  return { plugin, done };
}

/** The app of this file with a deadline, and the inner answer: what the server had when it finished working. */
function withShortDeadline(inner: App) {
  let answer: Promise<Response> | undefined;
  const app = withDeadline(
    {
      fetch: (request, client) => {
        answer = inner.fetch(request, client);
        return answer;
      },
    },
    DEADLINE_MS,
  );
  return { app, innerAnswer: () => answer! };
}

/** Several turns of the event loop, for whatever work is still queued to show itself. */
async function turns(n: number) {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setTimeout(resolve, 5));
}

describe('an answer larger than the limit', () => {
  it('is refused over GraphQL with RESPONSE_TOO_LARGE and HTTP 400, once the page text counted passes the limit', async () => {
    const execution = executionProbe();
    const app = createApp({ db: t.db, config: t.config }, { graphqlPlugins: [execution.plugin] });
    expect(markdownBytes).toBeGreaterThan(15 * CAP);

    const res = await app.fetch(graphqlRequest(EVERY_PAGE('markdown'), everySpace()));
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      data: null,
      errors: [{ message: `The answer would be larger than ${CAP} bytes, the most this server sends in one response: ask for fewer pages or spaces at once`, extensions: { code: 'RESPONSE_TOO_LARGE' } }],
      extensions: { cost: expect.any(Object) },
    });
    // The server stopped counting, and adding page text, right past the limit.
    const ctx = await execution.done;
    expect(ctx.bounds.bytes).toBeGreaterThan(CAP);
    expect(ctx.bounds.bytes).toBeLessThanOrEqual(CAP + largestPage);

    // An answer under the limit is left alone.
    const query = `query ($id: ID!) { node(id: $id) { ... on Space { content { pageCount page(path: "page-7") { markdown document } } } } }`;
    const one = await t.graphql(query, { id: encodeGlobalID('Space', spaceIds[0]) }, acme.admin.token);
    expect(one.status).toBe(200);
    expect(one.body.data.node.content).toMatchObject({ pageCount: PAGES, page: { markdown: pageMarkdown(0, 7), document: { object: 'document' } } });
  });

  it('is refused as well when the pages are asked for as JSON documents, counted as they are rendered', async () => {
    const execution = executionProbe();
    const app = createApp({ db: t.db, config: t.config }, { graphqlPlugins: [execution.plugin] });
    const res = await app.fetch(graphqlRequest(EVERY_PAGE('document'), everySpace()));
    expect(res.status).toBe(400);
    expect((await res.json()).errors).toEqual([expect.objectContaining({ extensions: { code: 'RESPONSE_TOO_LARGE' } })]);
    // A document is about twice its markdown: a few dozen of the 2,000 pages were rendered.
    expect((await execution.done).bounds.bytes).toBeLessThanOrEqual(CAP + 4 * largestPage);
  });

  it('leaves out of a mutation payload what does not fit, keeps the rest since the write is done, and says why', async () => {
    const mutation = `mutation ($id: ID!) { spaceUpdate(input: { spaceId: $id, title: "Renamed" }) { space { title content { pages { markdown } } } userErrors { message } } }`;
    const res = await t.graphql(mutation, { id: encodeGlobalID('Space', spaceIds[2]) }, acme.admin.token);
    expect(res.status).toBe(200);
    expect(res.body.data.spaceUpdate.space.title).toBe('Renamed');
    expect(res.body.errors).toContainEqual(expect.objectContaining({ extensions: { code: 'RESPONSE_TOO_LARGE' } }));
    // About a quarter of the space's 360 KB of markdown fitted; the rest was left out.
    expect(JSON.stringify(res.body).length).toBeLessThan(2 * CAP);
    expect((await t.rest('GET', `/v1/spaces/${spaceIds[2]}`, { token: acme.admin.token })).body.title).toBe('Renamed');
  });

  it('is refused over REST with a 400 in the platform error shape', async () => {
    for (const path of [`/v1/spaces/${spaceIds[0]}/content`, `/v1/spaces/${spaceIds[0]}/content/pages`]) {
      const res = await t.rest('GET', path, { token: acme.admin.token });
      expect(res.status, path).toBe(400);
      expect(res.body).toEqual({ error: { code: 400, message: expect.stringMatching(new RegExp(`^The answer would be larger than ${CAP} bytes`)) } });
    }
    const page = await t.rest('GET', `/v1/spaces/${spaceIds[0]}/content/path/page-7?format=document`, { token: acme.admin.token });
    expect(page.status).toBe(200);
    expect(page.body.document.object).toBe('document');
  });
});

describe('a request past its deadline', () => {
  it('gets its 503 over GraphQL, and the server renders no further page for it nor runs any further statement', async () => {
    const execution = executionProbe();
    // No size limit here: only the deadline stops this request.
    const { app, innerAnswer } = withShortDeadline(createApp({ db: t.db, config: { ...t.config, http: {} } }, { graphqlPlugins: [execution.plugin] }));

    const res = await app.fetch(graphqlRequest(EVERY_PAGE('document'), everySpace()));
    expect(res.status).toBe(503);
    expect((await res.json()).errors[0]).toEqual({ message: `The request did not finish within ${DEADLINE_MS} ms; try again shortly`, extensions: { code: 'SERVICE_UNAVAILABLE' } });

    // Execution ended as soon as the deadline was seen: what it built is dropped.
    const ctx = await execution.done;
    const stopped = await innerAnswer();
    expect(stopped.status).toBe(503);
    expect((await stopped.json()).errors).toEqual([{ message: 'The request was stopped: its deadline passed or its caller went away', extensions: { code: 'SERVICE_UNAVAILABLE' } }]);
    // A document is about twice its markdown: fewer than half of the pages were rendered.
    expect(ctx.bounds.bytes).toBeLessThan(markdownBytes);
    const statements = t.database.counter.count;
    await turns(20);
    expect(t.database.counter.count).toBe(statements);
  });

  it('stops a REST handler between pages as well', async () => {
    // The links of a space parse every page's markdown: about half a second for 4,000 pages here.
    const path = `/v1/spaces/${hugeSpaceId}/links`;
    const started = performance.now();
    const full = await t.rest('GET', path, { token: acme.admin.token });
    const fullMs = performance.now() - started;
    expect(full.status).toBe(200);

    const { app, innerAnswer } = withShortDeadline(createApp({ db: t.db, config: t.config }));
    const request = new Request(`${TEST_ORIGIN}${path}`, { headers: { authorization: `Bearer ${acme.admin.token}` } });
    const begun = performance.now();
    const res = await app.fetch(request);
    expect(res.status, `full answer ${fullMs.toFixed(0)} ms`).toBe(503);
    const stopped = await innerAnswer();
    const innerMs = performance.now() - begun;
    expect(stopped.status).toBe(503);
    expect(await stopped.json()).toEqual({ error: { code: 503, message: 'The request was stopped: its deadline passed or its caller went away' } });
    // Stopped at the next page after the deadline, not after parsing them all.
    expect(innerMs, `full answer ${fullMs.toFixed(0)} ms`).toBeLessThan(DEADLINE_MS + fullMs / 2);
  });
});
