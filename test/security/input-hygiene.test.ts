import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/clients';
import { buildOrganization, type OrgFixture } from '../support/factories';

let t: TestApp;
let acme: OrgFixture;

beforeAll(async () => {
  t = await startTestApp();
  acme = await buildOrganization(t.db, 'Acme');
});
afterAll(() => t.close());

const NUL = '\u0000';
const LONE = '\uD800';

async function spaceTitles(): Promise<string[]> {
  const res = await t.rest('GET', `/v1/orgs/${acme.organizationId}/spaces`, { token: acme.admin.token });
  expect(res.status).toBe(200);
  return res.body.items.map((s: { title: string }) => s.title).sort();
}

function expectRefused(res: { status: number; body: any }, where: RegExp) {
  expect(res.status).toBe(400);
  expect(res.body).toEqual({ error: { code: 400, message: expect.stringMatching(where) } });
}

describe('REST refuses NUL bytes and invalid UTF-16 with a 400, writing nothing', () => {
  it('in path ids', async () => {
    for (const path of ['/v1/orgs/%00', `/v1/orgs/${acme.organizationId}/teams/a%00b`, '/v1/spaces/%00/content']) {
      expectRefused(await t.rest('GET', path, { token: acme.admin.token }), /^Path parameter \w+ contains a NUL/);
    }
  });

  it('in query strings', async () => {
    expectRefused(await t.rest('GET', `/v1/orgs/${acme.organizationId}/teams?owner=%00`, { token: acme.admin.token }), /^Query parameter "owner"/);
    expectRefused(await t.rest('GET', `/v1/orgs/${acme.organizationId}/teams?x%00=1`, { token: acme.admin.token }), /^Query parameter/);
  });

  it('in any string of a JSON body, at any depth, keys included', async () => {
    const before = await spaceTitles();
    const org = `/v1/orgs/${acme.organizationId}`;
    const bodies: [string, string, unknown, RegExp][] = [
      ['POST', `${org}/spaces`, { title: `a${NUL}` }, /^Body field title/],
      ['POST', `${org}/spaces`, { title: 'ok', emoji: NUL }, /^Body field emoji/],
      ['POST', `${org}/spaces`, { title: 'ok', parent: `p${NUL}` }, /^Body field parent/],
      ['PATCH', org, { title: `x${LONE}` }, /^Body field title/],
      ['PATCH', org, { title: 'x', nested: [{ deep: { deeper: `${LONE}` } }] }, /^Body field nested\.0\.deep\.deeper/],
      ['PATCH', org, { [`k${NUL}`]: 'v' }, /^Body field k/],
      ['PATCH', org, { title: 'x', pad: { a: [1, { b: '📘 fine', c: `x${NUL}` }] } }, /^Body field pad\.a\.1\.c/],
    ];
    for (const [method, path, body, where] of bodies) expectRefused(await t.rest(method, path, { token: acme.admin.token, body }), where);
    // As raw JSON escapes too, the way a client that never builds the string would send it.
    expectRefused(await t.rest('POST', `${org}/spaces`, { token: acme.admin.token, rawBody: '{"title":"\\ud800x"}' }), /^Body field title/);
    expectRefused(await t.rest('POST', `${org}/spaces`, { token: acme.admin.token, rawBody: '{"description":"\\u0000"}' }), /^Body field description/);
    expectRefused(await t.rest('POST', `${org}/spaces`, { token: acme.admin.token, rawBody: '{"title":"\\ud83d\\ude00","emoji":"\\udc00"}' }), /^Body field emoji/);
    expect(await spaceTitles()).toEqual(before);
    const org2 = await t.rest('GET', org, { token: acme.admin.token });
    expect(org2.body.title).toBe('Acme');
  });

  it('still takes well-formed astral characters and other control characters', async () => {
    const res = await t.rest('POST', `/v1/orgs/${acme.organizationId}/spaces`, { token: acme.admin.token, body: { title: 'Notes 📘\ttab', emoji: '📘' } });
    expect(res.status).toBe(201);
    expect(res.body.title).toBe('Notes 📘\ttab');
  });
});

describe('GraphQL refuses them with BAD_USER_INPUT and HTTP 400, running nothing', () => {
  const create = 'mutation ($input: SpaceCreateInput!) { spaceCreate(input: $input) { space { id } } }';

  it('in variables at any depth and in inline literals', async () => {
    const before = await spaceTitles();
    const answers = [
      await t.graphql(create, { input: { organizationId: acme.organizationId, title: `a${NUL}` } }, acme.admin.token),
      await t.graphql(create, { input: { organizationId: `${acme.organizationId}${NUL}`, title: 'a' } }, acme.admin.token),
      await t.graphql(create, { input: { organizationId: acme.organizationId, emoji: LONE } }, acme.admin.token),
      await t.graphql(`mutation { spaceCreate(input: { organizationId: "${acme.organizationId}", title: "a\\u0000" }) { space { id } } }`, undefined, acme.admin.token),
    ];
    for (const res of answers) {
      expect(res.status).toBe(400);
      expect(res.body.data).toBeUndefined();
      expect(res.body.errors).toEqual([expect.objectContaining({ message: expect.stringMatching(/contains a NUL character or invalid UTF-16/), extensions: { code: 'BAD_USER_INPUT' } })]);
    }
    // graphql-js's parser itself refuses a lone surrogate escape in a literal.
    const literal = await t.graphql('query { node(id: "\\ud800") { id } }', undefined, acme.admin.token);
    expect(literal.status).toBe(400);
    expect(literal.body.errors[0].message).toMatch(/Invalid Unicode escape/);
    expect(await spaceTitles()).toEqual(before);
  });
});
