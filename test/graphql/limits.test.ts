import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_DEPTH, MAX_NODES } from '../../src/graphql/limits';
import { buildOrganization, type OrgFixture } from '../support/factories';
import { startTestApp, type TestApp } from '../support/clients';

let t: TestApp;
let acme: OrgFixture;

beforeAll(async () => {
  t = await startTestApp();
  acme = await buildOrganization(t.db, 'Limits');
});
afterAll(() => t.close());

const nest = (levels: number, size = 10) => {
  let q = 'restId';
  for (let i = 0; i < levels; i++) q = `members(first: ${size}) { edges { node { organization { ${q} } } } }`;
  return `{ viewer { organizations(first: 10) { edges { node { ${q} } } } } }`;
};

describe('query limits', () => {
  it('runs an ordinary nested query', async () => {
    const res = await t.graphql(nest(2), {}, acme.admin.token);
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.viewer.organizations.edges).toHaveLength(1);
  });

  it(`refuses, before running it, a query that could return more than ${MAX_NODES} nodes`, async () => {
    t.database.counter.count = 0;
    const res = await t.graphql(nest(3, 100), {}, acme.admin.token);
    expect(res.status).toBe(400);
    expect(res.body.data).toBeUndefined();
    expect(res.body.errors[0].extensions.code).toBe('QUERY_TOO_COMPLEX');
    expect(res.body.errors[0].message).toMatch(/nodes/);
    expect(t.database.counter.count).toBeLessThanOrEqual(1); // authentication only
  });

  it('counts a page size given as a variable at its maximum', async () => {
    const q = `query($n: Int) { viewer { organizations(first: $n) { edges { node { members(first: $n) { edges { node { organization { members(first: $n) {
      edges { node { organization { members(first: $n) { edges { node { role } } } } } } } } } } } } } } } }`;
    const res = await t.graphql(q, { n: 1 }, acme.admin.token);
    expect(res.status).toBe(400);
    expect(res.body.errors[0].extensions.code).toBe('QUERY_TOO_COMPLEX');
  });

  it(`refuses a query nested deeper than ${MAX_DEPTH} levels`, async () => {
    let q = 'restId';
    for (let i = 0; i < MAX_DEPTH; i++) q = `organization { ${q} }`;
    const res = await t.graphql(`{ viewer { organizations(first: 1) { edges { node { members(first: 1) { edges { node { ${q} } } } } } } } }`, {}, acme.admin.token);
    expect(res.status).toBe(400);
    expect(res.body.errors[0].message).toMatch(/levels deep/);
  });
});
