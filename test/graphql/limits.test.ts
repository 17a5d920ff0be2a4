import { encodeGlobalID } from '@pothos/plugin-relay';
import { getIntrospectionQuery, Lexer, parse, Source, TokenKind } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONNECTION_COST as W, QUERY_LIMITS, queryCost, WEIGHTS, WRITE_COST } from '../../src/graphql/cost';
import { schema } from '../../src/app/schema';
import { buildOrganization, type OrgFixture } from '../support/factories';
import { startTestApp, warmSession, type TestApp } from '../support/clients';

let t: TestApp;
let acme: OrgFixture;
/** Statements a request runs before GraphQL sees it: none, once the token's session is cached. */
let authStatements: number;

beforeAll(async () => {
  t = await startTestApp();
  acme = await buildOrganization(t.db, 'Limits');
  await warmSession(t, acme.admin.token);
  t.database.counter.count = 0;
  await t.graphql('{', {}, acme.admin.token); // a syntax error: nothing but authentication runs
  authStatements = t.database.counter.count;
  expect(authStatements).toBe(0);
});
afterAll(() => t.close());

const cost = (query: string, variables: Record<string, unknown> = {}) => queryCost(schema, parse(query), undefined, variables);

/** Fields of an answer, counted here independently of the server's own count. */
const fieldsOf = (value: unknown): number =>
  Array.isArray(value) ? value.reduce((n: number, v) => n + fieldsOf(v), 0) : value && typeof value === 'object' ? Object.values(value).reduce((n: number, v) => n + 1 + fieldsOf(v), 0) : 0;

const tokens = (query: string) => {
  const lexer = new Lexer(new Source(query));
  let n = 0;
  while (lexer.advance().kind !== TokenKind.EOF) n++;
  return n;
};

const nest = (levels: number, size = 10) => {
  let q = 'restId';
  for (let i = 0; i < levels; i++) q = `members(first: ${size}) { edges { node { organization { ${q} } } } }`;
  return `{ viewer { organizations(first: 10) { edges { node { ${q} } } } } }`;
};

/** A query that costs exactly `n` (from 3,000 to 30,000): organizations > members, padded with aliases of __typename. */
function costing(n: number): string {
  // viewer, organizations, edges: 3 and a connection; per organization node, members, edges: 3 and a
  // connection; per member node, role, sso: 3.
  for (let a = 1; a <= 100; a++) {
    for (let b = 1; b <= 100; b++) {
      const base = 3 + W + a * (3 + W + 3 * b);
      const pad = n - base;
      if (pad >= 0 && pad <= QUERY_LIMITS.aliases) {
        const aliases = Array.from({ length: pad }, (_, i) => `t${i}: __typename`).join(' ');
        return `{ ${aliases} viewer { organizations(first: ${a}) { edges { node { members(first: ${b}) { edges { node { role sso } } } } } } } }`;
      }
    }
  }
  throw new Error(`no query costs ${n}`);
}

/** Sends a query the limits refuse, and checks how: HTTP 400, QUERY_TOO_COMPLEX, and no SQL beyond authentication. */
async function refused(query: string, variables: Record<string, unknown> = {}, message?: RegExp) {
  t.database.counter.count = 0;
  const res = await t.graphql(query, variables, acme.admin.token);
  expect(res.status).toBe(400);
  expect(res.body.data).toBeUndefined();
  expect(res.body.errors[0].extensions.code).toBe('QUERY_TOO_COMPLEX');
  if (message) expect(res.body.errors[0].message).toMatch(message);
  expect(t.database.counter.count).toBe(authStatements);
  return res;
}

async function accepted(query: string, variables: Record<string, unknown> = {}) {
  const res = await t.graphql(query, variables, acme.admin.token);
  expect(res.body.errors).toBeUndefined();
  expect(res.status).toBe(200);
  return res;
}

describe('the cost model', () => {
  it('counts every field of the largest response, lists by their page size, and each connection', () => {
    // viewer, organizations, edges, the connection's query, then 10 x (node, title).
    expect(cost('{ viewer { organizations(first: 10) { edges { node { title } } } } }')).toBe(3 + W + 10 * 2);
    // The default page size when first is absent is 50.
    expect(cost('{ viewer { organizations { edges { node { title } } } } }')).toBe(3 + W + 50 * 2);
    expect(cost('{ viewer { organizations(last: 7) { totalCount pageInfo { hasNextPage } edges { cursor node { title } } } } }')).toBe(
      2 + W + 1 + 2 + 1 + 7 * 3,
    );
    // A page size above the maximum is refused by the resolver; it counts at the maximum.
    expect(cost('{ viewer { organizations(first: 1000) { edges { node { title } } } } }')).toBe(3 + W + 100 * 2);
    // A connection asked for no items still counts: it may still run a query (for totalCount).
    expect(cost('{ viewer { organizations(first: 0) { totalCount } } }')).toBe(3 + W);
  });

  it('counts a list sized by its data at a guess, one item per parent inside a list of its group, and weighs dear fields', () => {
    const inSpace = (selection: string) => cost(`{ node(id: "x") { ... on Space { content { ${selection} } } } }`);
    // node, content, pages, then 50 top-level pages of (title, pages, one page of (title)).
    expect(inSpace('pages { title pages { title } }')).toBe(3 + 50 * (2 + 1 * 1));
    // Deeper levels of the same tree add one item each, not fifty.
    expect(inSpace('pages { title pages { title pages { title } } }')).toBe(3 + 50 * (2 + 1 * (2 + 1 * 1)));
    // A document weighs WEIGHTS.document more than the field itself; markdown WEIGHTS.markdown.
    expect(inSpace('pages { document }')).toBe(3 + 50 * (1 + WEIGHTS.document));
    expect(inSpace('pages { markdown }')).toBe(3 + 50 * (1 + WEIGHTS.markdown));
    // Files are not of the page tree: 50 files in the revision of each of 50 pages (revision, files).
    expect(inSpace('pages { revision { files { name } } }')).toBe(3 + 50 * (1 + 1 + 50 * 1));
  });

  it('multiplies nested lists', () => {
    // members(first: 10) { edges { node { organization { restId } } } }: members, edges, 10 x (node, organization, restId).
    const inner = 2 + W + 10 * 3;
    // Around it: viewer, organizations, edges, then 10 x (node and what is inside).
    expect(cost(nest(1, 10))).toBe(3 + W + 10 * (1 + inner));
    expect(cost(nest(2, 10))).toBe(3 + W + 10 * (1 + 2 + W + 10 * (2 + inner)));
  });

  it('counts page sizes from variables at their value, the default page size when absent', () => {
    const q = 'query ($n: Int) { viewer { organizations(first: $n) { edges { node { title } } } } }';
    expect(cost(q, { n: 1 })).toBe(3 + W + 2);
    expect(cost(q, { n: 100 })).toBe(3 + W + 200);
    expect(cost(q, {})).toBe(3 + W + 100);
    expect(cost('query ($n: Int = 7) { viewer { organizations(first: $n) { edges { node { title } } } } }', {})).toBe(3 + W + 14);
  });

  it('counts a connection in an inline fragment as one selected directly', () => {
    const direct = `{ organization(id: "x") { spaces(first: 100) { edges { node { title } } } } }`;
    const inline = `{ organization(id: "x") { spaces(first: 100) { ... on SpaceConnection { edges { node { title } } } } } }`;
    const deeper = `{ organization(id: "x") { ... on Organization { spaces(first: 100) { ... { ... on SpaceConnection { edges { ... on SpaceEdge { node { title } } } } } } } } }`;
    expect(cost(inline)).toBe(cost(direct));
    expect(cost(deeper)).toBe(cost(direct));
    // The query: edges only inside inline fragments, 100^4 nodes.
    let q = 'title';
    for (let i = 0; i < 3; i++) q = `members(first: 100) { ... on OrganizationMemberConnection { edges { node { organization { ${q} } } } } }`;
    expect(cost(`{ viewer { organizations(first: 100) { ... on OrganizationConnection { edges { node { ${q} } } } } } }`)).toBeGreaterThan(100 ** 4);
  });

  it('counts a connection in a named fragment as one selected directly', () => {
    const direct = `{ viewer { organizations(first: 100) { edges { node { members(first: 100) { edges { node { role } } } } } } } }`;
    const named = `{ viewer { organizations(first: 100) { ...Orgs } } }
      fragment Orgs on OrganizationConnection { edges { node { ...Org } } }
      fragment Org on Organization { members(first: 100) { ...Members } }
      fragment Members on OrganizationMemberConnection { edges { node { role } } }`;
    expect(cost(named)).toBe(cost(direct));
  });

  it('counts each alias separately, and merges what graphql-js merges', () => {
    const one = cost('{ organization(id: "x") { spaces(first: 100) { edges { node { title } } } } }')!;
    const page = one - 1; // without the organization field itself
    expect(cost('{ organization(id: "x") { a: spaces(first: 100) { edges { node { title } } } b: spaces(first: 100) { edges { node { title } } } } }')).toBe(1 + 2 * page);
    // The same response key twice is one field, executed once.
    expect(cost('{ organization(id: "x") { spaces(first: 100) { edges { node { title } } } spaces(first: 100) { edges { node { title } } } } }')).toBe(one);
    expect(cost('{ organization(id: "x") { ...A ...A spaces(first: 100) { edges { node { title } } } } } fragment A on Organization { spaces(first: 100) { edges { node { title } } } }')).toBe(one);
  });

  it('counts an interface by its dearest possible type', () => {
    const q = `{ node(id: "x") { id ... on Space { title organization { title } } ... on Team { title } } }`;
    expect(cost(q)).toBe(1 + 1 + 1 + 2);
  });

  it('counts nodes(ids:) by the length of its list', () => {
    const ids = (n: number) => JSON.stringify(Array.from({ length: n }, (_, i) => `id${i}`));
    expect(cost(`{ nodes(ids: ${ids(3)}) { id } }`)).toBe(1 + 3);
    expect(cost(`query ($ids: [ID!]!) { nodes(ids: $ids) { id } }`, { ids: ['a', 'b'] })).toBe(1 + 2);
    expect(() => cost(`{ nodes(ids: ${ids(QUERY_LIMITS.listArgument + 1)}) { id } }`)).toThrow(/at most/);
  });

  it('leaves out what @skip and @include leave out', () => {
    const q = 'query ($big: Boolean!) { viewer { organizations(first: 100) @include(if: $big) { edges { node { title } } } user { displayName } } }';
    expect(cost(q, { big: false })).toBe(3);
    expect(cost(q, { big: true })).toBe(3 + 2 + W + 200);
  });

  it('counts a mutation and the items of the lists in its input as writes', () => {
    const q = 'mutation ($users: [ID!]) { contentAccessGrant(input: { contentId: "x", role: READ, userIds: $users }) { userErrors { message } } }';
    // The field, its writes, userErrors as a list of 50.
    expect(cost(q, { users: [] })).toBe(1 + WRITE_COST + 1 + 50);
    expect(cost(q, { users: ['a', 'b', 'c'] })).toBe(1 + WRITE_COST * 4 + 1 + 50);
  });

  it('measures a fragment that doubles at every level without expanding it', () => {
    let fragments = 'fragment F0 on Collection { title }\n';
    for (let i = 1; i <= 18; i++) fragments += `fragment F${i} on Collection { a: parent { ...F${i - 1} } b: parent { ...F${i - 1} } }\n`;
    const started = performance.now();
    // F0 costs 1 and Fi costs 2 x (1 + Fi-1): 3 x 2^i - 2.
    expect(cost(`{ node(id: "x") { ... on Collection { ...F18 } } } ${fragments}`)).toBe(1 + 3 * 2 ** 18 - 2);
    expect(performance.now() - started).toBeLessThan(100);
  });

  it('takes the introspection GraphiQL sends', () => {
    expect(cost(getIntrospectionQuery({ descriptions: true, specifiedByUrl: true, directiveIsRepeatable: true, schemaDescription: true, inputValueDeprecation: true }))).toBe(1);
  });
});

describe('query limits', () => {
  it('runs an ordinary nested query and reports its cost', async () => {
    const res = await accepted(nest(2));
    expect(res.body.data.viewer.organizations.edges).toHaveLength(1);
    // No list here is sized by its data: what was counted is what was estimated.
    const requested = cost(nest(2));
    expect(res.body.extensions.cost).toEqual({ requested, counted: requested, actual: fieldsOf(res.body.data), limit: QUERY_LIMITS.cost });
  });

  it(`takes a query that costs ${QUERY_LIMITS.cost} and refuses, before running it, one that costs one more`, async () => {
    const atLimit = costing(QUERY_LIMITS.cost);
    expect(cost(atLimit)).toBe(QUERY_LIMITS.cost);
    expect((await accepted(atLimit)).body.extensions.cost.requested).toBe(QUERY_LIMITS.cost);
    const over = costing(QUERY_LIMITS.cost + 1);
    const res = await refused(over, {}, /up to \d+ fields/);
    expect(res.body.extensions.cost).toEqual({ requested: QUERY_LIMITS.cost + 1, limit: QUERY_LIMITS.cost });
  });

  it('refuses the nesting of the issue, written with inline fragments', async () => {
    let q = 'title';
    for (let i = 0; i < 3; i++) q = `members(first: 100) { ... on OrganizationMemberConnection { edges { node { organization { ${q} } } } } }`;
    await refused(`{ viewer { organizations(first: 100) { ... on OrganizationConnection { edges { node { ${q} } } } } } }`);
  });

  it('refuses the same nesting written with named fragments', async () => {
    await refused(`{ viewer { organizations(first: 100) { ...O } } }
      fragment O on OrganizationConnection { edges { node { members(first: 100) { ...M } } } }
      fragment M on OrganizationMemberConnection { edges { node { organization { members(first: 100) { edges { node { role } } } } } } }`);
  });

  it('counts a page size given as a variable at its value', async () => {
    const q = `query($n: Int) { viewer { organizations(first: $n) { edges { node { members(first: $n) { edges { node { organization { members(first: $n) {
      edges { node { organization { members(first: $n) { edges { node { role } } } } } } } } } } } } } } } }`;
    expect((await accepted(q, { n: 1 })).body.extensions.cost.requested).toBe(cost(q, { n: 1 }));
    await refused(q, { n: 100 });
  });

  it('counts each request of a repeated document at its own variables (the cost is remembered per document and sizing values)', async () => {
    // One text, so the server parses it once and keeps the document: what it remembers must still
    // follow the page size, the @skip switch and a change of the id alone must not change the cost.
    const q = `query($id: ID!, $n: Int, $deep: Boolean!) { organization(id: $id) { title members(first: $n) { edges { node { role
      organization @skip(if: $deep) { title } user @include(if: $deep) { displayName photoUrl email } } } } } }`;
    const asked = [
      { id: acme.organizationId, n: 1, deep: false },
      { id: acme.organizationId, n: 7, deep: false },
      { id: 'missing-org', n: 7, deep: false },
      { id: acme.organizationId, n: 7, deep: true },
      { id: acme.organizationId, n: 1, deep: false },
    ];
    const requested: number[] = [];
    for (const variables of asked) {
      const res = await accepted(q, variables);
      expect(res.body.extensions.cost.requested).toBe(cost(q, variables));
      requested.push(res.body.extensions.cost.requested);
    }
    expect(new Set(requested).size).toBe(3);
    expect(requested[1]).toBe(requested[2]);
  });

  it(`takes ${QUERY_LIMITS.aliases} aliases and refuses ${QUERY_LIMITS.aliases + 1}`, async () => {
    const aliases = (n: number) => `{ viewer { ${Array.from({ length: n }, (_, i) => `o${i}: organizations(first: 1) { totalCount }`).join(' ')} } }`;
    await accepted(aliases(QUERY_LIMITS.aliases));
    await refused(aliases(QUERY_LIMITS.aliases + 1), {}, /aliases/);
    // Aliases count wherever they are: in fragments too.
    const inFragment = (n: number) => `{ viewer { ...F } } fragment F on Viewer { ${Array.from({ length: n }, (_, i) => `o${i}: user { id }`).join(' ')} }`;
    await accepted(inFragment(QUERY_LIMITS.aliases));
    await refused(inFragment(QUERY_LIMITS.aliases + 1), {}, /aliases/);
  });

  it(`takes ${QUERY_LIMITS.depth} levels of nesting and refuses ${QUERY_LIMITS.depth + 1}`, async () => {
    // viewer > organizations > edges > node > spaces > edges > node: 7 levels, then parent after parent.
    const deep = (levels: number) => {
      let q = 'title';
      for (let i = 0; i < levels - 7; i++) q = `parent { ${q} }`;
      return `{ viewer { organizations(first: 1) { edges { node { spaces(first: 1) { edges { node { ${q} } } } } } } } }`;
    };
    await accepted(deep(QUERY_LIMITS.depth));
    await refused(deep(QUERY_LIMITS.depth + 1), {}, /nested 21 levels deep/);
    // Fragments add no level of their own, and hide none.
    const viaFragments = (levels: number) => `{ viewer { ...V } } fragment V on Viewer { ... on Viewer { ${deep(levels).slice('{ viewer { '.length, -' } }'.length)} } }`;
    await accepted(viaFragments(QUERY_LIMITS.depth));
    await refused(viaFragments(QUERY_LIMITS.depth + 1), {}, /nested 21 levels deep/);
  });

  it(`takes a query of ${QUERY_LIMITS.tokens} tokens and refuses one of ${QUERY_LIMITS.tokens + 1}`, async () => {
    // The default value of a variable is parsed even when the request gives the variable.
    const withTokens = (n: number) => {
      const head = 'query ($ids: [ID!]! = [';
      const tail = ']) { nodes(ids: $ids) { id } }';
      const filler = Array.from({ length: n - tokens(head + tail) }, (_, i) => `"${i}"`).join(' ');
      return head + filler + tail;
    };
    expect(tokens(withTokens(QUERY_LIMITS.tokens))).toBe(QUERY_LIMITS.tokens);
    await accepted(withTokens(QUERY_LIMITS.tokens), { ids: [] });
    await refused(withTokens(QUERY_LIMITS.tokens + 1), { ids: [] }, /tokens/);
  });

  it(`takes a query of ${QUERY_LIMITS.documentBytes} bytes and refuses one of ${QUERY_LIMITS.documentBytes + 1}`, async () => {
    // A comment is no token: only the size limit stops a long one. Two bytes a character.
    const ofBytes = (n: number) => {
      const q = '{ viewer { user { id } } }\n#';
      return q + 'é'.repeat((n - q.length) >> 1) + ((n - q.length) % 2 ? 'e' : '');
    };
    expect(Buffer.byteLength(ofBytes(QUERY_LIMITS.documentBytes))).toBe(QUERY_LIMITS.documentBytes);
    await accepted(ofBytes(QUERY_LIMITS.documentBytes));
    await refused(ofBytes(QUERY_LIMITS.documentBytes + 1), {}, /bytes/);
  });

  it(`takes nodes(ids:) with ${QUERY_LIMITS.listArgument} ids and refuses ${QUERY_LIMITS.listArgument + 1}`, async () => {
    const ids = (n: number) => Array.from({ length: n }, (_, i) => encodeGlobalID('Space', `missing${i}`));
    const q = 'query ($ids: [ID!]!) { nodes(ids: $ids) { id } }';
    expect((await accepted(q, { ids: ids(QUERY_LIMITS.listArgument) })).body.data.nodes).toHaveLength(QUERY_LIMITS.listArgument);
    await refused(q, { ids: ids(QUERY_LIMITS.listArgument + 1) }, /nodes\(ids:\) takes at most/);
    // Written in the query, too.
    await refused(`{ nodes(ids: ${JSON.stringify(ids(QUERY_LIMITS.listArgument + 1))}) { id } }`, {}, /at most/);
  });

  it(`takes a request body of ${QUERY_LIMITS.requestBytes} bytes and refuses one of ${QUERY_LIMITS.requestBytes + 1} (HTTP 413)`, async () => {
    // Variables the operation does not declare are ignored: here they only make the body longer.
    const ofBytes = (n: number) => {
      const body = (pad: string) => JSON.stringify({ query: '{ viewer { user { id } } }', variables: { pad } });
      return body('x'.repeat(n - body('').length));
    };
    const post = (body: string) =>
      t.app.fetch(
        new Request('http://quire.test/graphql', {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json', authorization: `Bearer ${acme.admin.token}` },
          body,
        }),
      );
    expect(ofBytes(QUERY_LIMITS.requestBytes)).toHaveLength(QUERY_LIMITS.requestBytes);
    const ok = await post(ofBytes(QUERY_LIMITS.requestBytes));
    expect(ok.status).toBe(200);
    expect((await ok.json()).data.viewer.user.id).toBeTruthy();
    t.database.counter.count = 0;
    const tooLarge = await post(ofBytes(QUERY_LIMITS.requestBytes + 1));
    expect(tooLarge.status).toBe(413);
    expect((await tooLarge.json()).errors[0].extensions.code).toBe('REQUEST_ENTITY_TOO_LARGE');
    expect(t.database.counter.count).toBe(authStatements);
  });

  it('refuses with HTTP 400 a client that accepts only application/json', async () => {
    const res = await t.app.fetch(
      new Request('http://quire.test/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json', authorization: `Bearer ${acme.admin.token}` },
        body: JSON.stringify({ query: `{ viewer { ${Array.from({ length: QUERY_LIMITS.aliases + 1 }, (_, i) => `u${i}: user { id }`).join(' ')} } }` }),
      }),
    );
    expect(res.status).toBe(400);
    expect((await res.json()).errors[0].extensions.code).toBe('QUERY_TOO_COMPLEX');
  });
});
