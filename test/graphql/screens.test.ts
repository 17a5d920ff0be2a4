import { Environment, fetchQuery, getSelector, Network, RecordSource, Store, type ConcreteRequest, type ReaderFragment } from 'relay-runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, warmSession, type TestApp } from '../support/clients';
import { gid } from '../support/doors';
import { buildMember, buildOrganization, buildTeam, type OrgFixture } from '../support/factories';
import { mutations } from '../support/graphql';
import { fillSpaces, fillTree } from '../support/many-pages';
import { compileRelayApp, relayArtifact } from '../support/relay';

/**
 * The screens a front-end builds on GraphQL, on realistic data, must pass the cost limit; the
 * hostile queries must not, or must stop early. Each screen reports what the limit estimated
 * before execution, what it counted with the real list sizes, and the fields the answer held.
 *
 * The screens are a Relay app's (test/fixtures/relay-screens): the real relay-compiler builds them
 * against schema.graphql, fragments and all, and a relay-runtime Environment sends them and
 * normalizes the answers into its store, where the test reads fragments back as `useFragment` does.
 */

let t: TestApp;
let acme: OrgFixture;
const ids = { treeSpace: '', site: '', changeRequest: '', reviewSpace: '', huge: [] as string[], many: [] as string[] };
/** Pages of the four-level tree: 8 top-level pages, each with 4, each with 3, each with 3. */
const FANOUT = [8, 4, 3, 3];
let treePages = 0;
const report: Record<string, unknown>[] = [];

async function call(method: string, path: string, body?: unknown) {
  const res = await t.rest(method, path, { token: acme.admin.token, body });
  expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
  return res.body;
}

const newSpace = async (title: string) => (await call('POST', `/v1/orgs/${acme.organizationId}/spaces`, { title })).id as string;

/** The last answer the Relay app's network layer received, as sent: status, body. */
let last: { status: number; body: any };
let relay: Environment;
/** What the Relay app's last query gave its component: fragments masked, as refs. */
let relayData: any;
let relayApp: string;
const query = (name: string) => relayArtifact<ConcreteRequest>(relayApp, name);

function relayEnvironment(): Environment {
  const network = Network.create(async (params, variables) => {
    const res = await t.graphql(params.text!, variables, acme.admin.token);
    last = res;
    return res.body;
  });
  return new Environment({ network, store: new Store(new RecordSource()) });
}

beforeAll(async () => {
  relayApp = compileRelayApp('relay-screens');
  t = await startTestApp();
  acme = await buildOrganization(t.db, 'Screens');

  ids.treeSpace = await newSpace('Handbook');
  treePages = await fillTree(t.db, ids.treeSpace, FANOUT);

  // The dashboard, the organization's first 20 spaces (the tree's among them), with 5 open change requests each, 2 comments on each.
  const dashboard = [ids.treeSpace];
  for (let i = dashboard.length; i < 20; i++) dashboard.push(await newSpace(`Team space ${i}`));
  for (const spaceId of dashboard) {
    for (let c = 0; c < 5; c++) {
      const cr = await call('POST', `/v1/spaces/${spaceId}/change-requests`, { subject: `Proposal ${c}` });
      await call('PATCH', `/v1/spaces/${spaceId}/change-requests/${cr.id}`, { status: 'open' });
      for (let k = 0; k < 2; k++) await call('POST', `/v1/spaces/${spaceId}/change-requests/${cr.id}/comments`, { body: { markdown: `Thought ${k}` } });
    }
  }


  // A site of two groups of three sections, each section with two variants, and a lone section.
  const first = await newSpace('Home');
  const site = await call('POST', `/v1/orgs/${acme.organizationId}/sites`, { title: 'Docs', spaces: [first] });
  ids.site = site.id;
  const base = `/v1/orgs/${acme.organizationId}/sites/${site.id}`;
  await call('POST', `${base}/sections`, { spaceId: await newSpace('Start'), title: 'Start' });
  for (const group of ['Guides', 'Reference']) {
    const sections: string[] = [];
    for (let i = 0; i < 3; i++) {
      const section = await call('POST', `${base}/sections`, { spaceId: await newSpace(`${group} ${i}`), title: `${group} ${i}` });
      await call('POST', `${base}/site-spaces`, { spaceId: await newSpace(`${group} ${i} v2`), sectionId: section.id });
      sections.push(section.id);
    }
    await call('POST', `${base}/section-groups`, { title: group, sections });
  }

  // The review: a change request of 20 comments with 5 replies each, and reactions on both.
  ids.reviewSpace = await newSpace('Reviewed');
  await fillSpaces(t.db, [ids.reviewSpace], 30);
  const cr = await call('POST', `/v1/spaces/${ids.reviewSpace}/change-requests`, { subject: 'Rewrite the intro' });
  ids.changeRequest = cr.id;
  // Five of its pages rewritten in the change request.
  const { succeed } = mutations(() => t, { token: () => acme.admin.token });
  const pages = await t.graphql(`query ($id: ID!) { node(id: $id) { ... on Space { content { pages { id } } } } }`, { id: gid('Space', ids.reviewSpace) }, acme.admin.token);
  for (const page of pages.body.data.node.content.pages.slice(0, 5)) {
    await succeed('pageUpdate', { pageId: page.id, changeRequestId: gid('ChangeRequest', cr.id), markdown: 'Rewritten.\n' });
  }
  const prefix = `/v1/spaces/${ids.reviewSpace}/change-requests/${cr.id}`;
  for (let c = 0; c < 20; c++) {
    const comment = await call('POST', `${prefix}/comments`, { body: { markdown: `Comment ${c}` } });
    await call('PUT', `${prefix}/comments/${comment.id}`, { addedReactions: ['👍', '🎉'] });
    for (let r = 0; r < 5; r++) {
      const reply = await call('POST', `${prefix}/comments/${comment.id}/replies`, { body: { markdown: `Reply ${r}` } });
      await call('PUT', `${prefix}/comments/${comment.id}/replies/${reply.id}`, { addedReactions: ['👀'] });
    }
  }

  // 50 members in 5 teams of 10.
  const members = [];
  for (let i = 0; i < 49; i++) members.push(await buildMember(t.db, acme.organizationId, 'read', `Member ${i}`));
  for (let k = 0; k < 5; k++) await buildTeam(t.db, acme.organizationId, `Team ${k}`, members.slice(k * 10, k * 10 + 10).map((m) => ({ userId: m.userId, role: 'member' as const })));

  // For the hostile queries: 2 spaces of 4,000 pages and 100 spaces of 2 pages.
  for (let i = 0; i < 2; i++) ids.huge.push(await newSpace(`Huge ${i}`));
  await fillSpaces(t.db, ids.huge, 4_000);
  await warmSession(t, acme.admin.token);
  relay = relayEnvironment();
}, 300_000);

afterAll(async () => {
  console.table(report);
  await t.close();
});

/** Runs a query; answers the response after recording its costs and statements. */
async function screen(name: string, query: string, variables: Record<string, unknown>) {
  t.database.counter.count = 0;
  const started = performance.now();
  const res = await t.graphql(query, variables, acme.admin.token);
  return recorded(name, res, started);
}

/** Runs a screen of the Relay app through its Environment; answers what the server sent. */
async function relayScreen(name: string, operation: string, variables: Record<string, unknown>) {
  t.database.counter.count = 0;
  const started = performance.now();
  relayData = await fetchQuery(relay, await query(operation), variables).toPromise();
  return recorded(name, last, started);
}

/** Reads a fragment of the Relay store, as a component's `useFragment` does. */
async function fragment(name: string, ref: unknown): Promise<any> {
  return relay.lookup(getSelector(await relayArtifact<ReaderFragment>(relayApp, name), ref) as never).data;
}

function recorded(name: string, res: { status: number; body: any }, started: number) {
  const ms = Math.round(performance.now() - started);
  const cost = res.body.extensions?.cost ?? {};
  report.push({ screen: name, status: res.status, error: res.body.errors?.[0]?.extensions?.code ?? '', requested: cost.requested, counted: cost.counted, actual: cost.actual, ms, statements: t.database.counter.count, bytes: JSON.stringify(res.body).length });
  return res;
}

function accepted(res: { status: number; body: any }) {
  expect(res.body.errors, JSON.stringify(res.body.errors)).toBeUndefined();
  expect(res.status).toBe(200);
  const { requested, counted, actual, limit } = res.body.extensions.cost;
  expect(requested).toBeLessThanOrEqual(limit);
  expect(counted).toBeLessThanOrEqual(limit);
  expect(actual).toBeGreaterThan(0);
  return res.body.data;
}

describe('ordinary screens pass', () => {
  it("a space's whole page tree, four levels deep", async () => {
    const data = accepted(await relayScreen('page tree (4 levels)', 'PageTreeQuery', { id: gid('Space', ids.treeSpace) }));
    // The whole tree is one statement away, whatever its size.
    expect(t.database.counter.count).toBeLessThanOrEqual(1);
    const count = (pages: any[]): number => pages.reduce((n, p) => n + 1 + count(p.pages ?? []), 0);
    expect(count(data.node.content.pages)).toBe(treePages);
    const deepest = relayData.node.content.pages[7].pages[3].pages[2].pages[2];
    expect(await fragment('PageTree_page', deepest)).toEqual({ title: 'Page 8-4-3-3', path: 'page-8/page-8-4/page-8-4-3/page-8-4-3-3' });
    expect(data.node.content.pageCount).toBe(treePages);
  });

  it("a site's structure: groups, sections, site spaces and their spaces", async () => {
    const data = accepted(await relayScreen('site structure', 'SiteStructureQuery', { id: gid('Site', ids.site) }));
    // The site, its structure and the spaces it publishes, batched: not a statement per section.
    expect(t.database.counter.count).toBeLessThanOrEqual(6);
    const groups = data.node.structure.filter((i: any) => i.__typename === 'SiteSectionGroup');
    expect(groups.map((g: any) => [g.title, g.sections.length, g.sections[0].siteSpaces.length])).toEqual([
      ['Guides', 3, 2],
      ['Reference', 3, 2],
    ]);
  });

  it('a dashboard of 20 spaces with 5 open change requests each and their comment counts', async () => {
    const data = accepted(await relayScreen('dashboard (20 spaces x 5 CRs)', 'DashboardQuery', { id: acme.organizationId }));
    // Spaces, then every space's change requests in one statement, their authors batched.
    expect(t.database.counter.count).toBeLessThanOrEqual(3);
    const spaces = data.organization.spaces.edges.map((e: any) => e.node);
    expect(spaces).toHaveLength(20);
    const crs = spaces.flatMap((s: any) => s.changeRequests.edges.map((e: any) => e.node));
    expect(crs).toHaveLength(100);
    expect(crs.every((cr: any) => cr.comments.totalCount === 2)).toBe(true);
  });

  it('a change-request review: its changes, 20 comments with 5 replies and reactions', async () => {
    const data = accepted(await relayScreen('change-request review', 'ReviewQuery', { id: gid('ChangeRequest', ids.changeRequest) }));
    // 20 comments and 100 replies with their reactions and authors: a statement per level, not per item.
    expect(t.database.counter.count).toBeLessThanOrEqual(7);
    const comments = data.node.comments.edges.map((e: any) => e.node);
    expect(comments).toHaveLength(20);
    expect(data.node.changes).toHaveLength(5);
    // What the comment component reads from the store: its own fragment, its reactions as refs.
    const first = await fragment('Review_comment', relayData.node.comments.edges[0].node);
    expect(first.markdown).toBe(comments[0].markdown);
    expect((await fragment('Review_reaction', first.reactions[0])).users).toHaveLength(1);
    expect(data.node.changes[0].diff).toContain('+Rewritten.');
    expect(comments[0].reactions.map((r: any) => r.emoji)).toEqual(['👍', '🎉']);
    expect(comments.every((c: any) => c.replies.edges.length === 5 && c.replies.edges[0].node.reactions[0].count === 1)).toBe(true);
  });

  it('50 members with their roles, users and teams, and 5 teams with their members', async () => {
    const data = accepted(await relayScreen('50 members and their teams', 'MembersQuery', { id: acme.organizationId }));
    // The teams of all 50 members come in one statement, not one per member.
    expect(t.database.counter.count).toBeLessThanOrEqual(7);
    expect(data.organization.members.edges).toHaveLength(50);
    // Each member's teams: the 49 read members are in one team each, the admin in none.
    const teams = data.organization.members.edges.map((e: any) => e.node.teams.edges.map((t: any) => t.node.team.title));
    expect(teams.filter((t: string[]) => t.length === 1)).toHaveLength(49);
    expect(teams.flat().filter((t: string) => t === 'Team 4')).toHaveLength(9);
    expect(data.organization.teams.edges.map((e: any) => e.node.members.edges.length)).toEqual([10, 10, 10, 10, 9]);
  });
});

describe('hostile queries stay bounded', () => {
  const hundred = () => Array.from({ length: 100 }, (_, i) => gid('Space', i < 2 ? ids.huge[i] : `${ids.huge[0]}x${i}`));

  it('refuses before any SQL a query whose estimate is over the limit: 100 spaces of pages with their documents', async () => {
    const query = `query ($ids: [ID!]!) { nodes(ids: $ids) { ... on Space { content { pages { title document } } } } }`;
    const res = await screen('100 spaces x pages x document', query, { ids: hundred() });
    expect(res.status).toBe(400);
    expect(res.body.errors[0].extensions.code).toBe('QUERY_TOO_COMPLEX');
    expect(res.body.errors[0].message).toMatch(/could return up to/);
    expect(t.database.counter.count).toBe(0);
  });

  it('stops the same with markdown as soon as the first long list is found, before reading a page body', async () => {
    const query = `query ($ids: [ID!]!) { nodes(ids: $ids) { ... on Space { content { pages { title markdown } } } } }`;
    const res = await screen('100 spaces x pages x markdown', query, { ids: hundred() });
    expect(res.status).toBe(400);
    expect(res.body.data).toBeNull();
    expect(res.body.errors[0].extensions.code).toBe('QUERY_TOO_COMPLEX');
    expect(res.body.errors[0].message).toMatch(/sizes of its lists/);
    // The spaces, their organizations and revisions: a statement or a few each, no page body.
    expect(t.database.counter.count).toBeLessThanOrEqual(20);
  });

  it('stops, once the lists are found longer than estimated, before reading any page: 2 spaces of 4,000 pages', async () => {
    const query = `query ($ids: [ID!]!) { nodes(ids: $ids) { ... on Space { content { pages { title markdown } } } } }`;
    const res = await screen('2 spaces x 4,000 pages x markdown', query, { ids: ids.huge.map((id) => gid('Space', id)) });
    expect(res.status).toBe(400);
    expect(res.body.data).toBeNull();
    expect(res.body.errors).toHaveLength(1);
    expect(res.body.errors[0].extensions.code).toBe('QUERY_TOO_COMPLEX');
    expect(res.body.errors[0].message).toMatch(/sizes of its lists/);
    // The spaces and their revisions were read; no page body was.
    expect(t.database.counter.count).toBeLessThanOrEqual(4);
    // The same pages without their bodies fit.
    accepted(await screen('2 spaces x 4,000 page titles', `query ($ids: [ID!]!) { nodes(ids: $ids) { ... on Space { content { pages { title } } } } }`, { ids: ids.huge.map((id) => gid('Space', id)) }));
  });

  it('counts a deep page tree by its real size, however the levels nest', async () => {
    const deep = `query ($id: ID!) { node(id: $id) { ... on Space { content { pages { document pages { document pages { document pages { document } } } } } } } }`;
    const res = await screen('page tree x documents', deep, { id: gid('Space', ids.treeSpace) });
    // 424 pages with their documents fit the limit; the same tree holds the count to its real size.
    const { requested, counted } = accepted(res) && res.body.extensions.cost;
    expect(counted).toBeGreaterThan(requested);
  });
});
