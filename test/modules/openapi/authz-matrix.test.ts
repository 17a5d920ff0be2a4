/**
 * Authorization matrix of the six OpenAPI spec operations: one row per operation, one expected
 * status per actor; writes act on a spec made for the cell. Actors who cannot see the organization
 * get an answer byte-identical to the one for a missing organization.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../support/clients';
import { buildMember, buildOrganization, type Actor, type OrgFixture } from '../../support/factories';

const WHO = ['admin', 'create', 'edit', 'read', 'guest', 'outsider', 'anonymous'] as const;
type Who = (typeof WHO)[number];
const BLIND: Who[] = ['guest', 'outsider'];
const MISSING = 'doesNotExist00000000';
const TEXT = 'openapi: 3.0.3\ninfo: { title: M, version: "1" }\npaths: {}\n';

let t: TestApp;
let acme: OrgFixture;
let other: OrgFixture;
let people: Record<'create' | 'edit' | 'read' | 'guest', Actor>;
let n = 0;

beforeAll(async () => {
  t = await startTestApp({}, { jobs: true });
  acme = await buildOrganization(t.db, 'Acme');
  other = await buildOrganization(t.db, 'Other');
  people = {
    create: await buildMember(t.db, acme.organizationId, 'create'),
    edit: await buildMember(t.db, acme.organizationId, 'edit'),
    read: await buildMember(t.db, acme.organizationId, 'read'),
    guest: await buildMember(t.db, acme.organizationId, null),
  };
});
afterAll(() => t?.close());

const token = (who: Who): string | null => (who === 'anonymous' ? null : who === 'admin' ? acme.admin.token : who === 'outsider' ? other.admin.token : people[who].token);
const base = () => `/v1/orgs/${acme.organizationId}/openapi`;

/** A spec made for one cell. */
async function spec(): Promise<string> {
  const slug = `spec-${++n}`;
  const res = await t.rest('PUT', `${base()}/${slug}`, { token: acme.admin.token, body: { source: { text: TEXT } } });
  expect(res.status).toBe(201);
  return slug;
}

const ROWS: { op: string; method: string; expect: [number, number, number, number, number, number]; call: () => Promise<{ path: string; body?: unknown }> }[] = [
  { op: 'list', method: 'GET', expect: [200, 200, 200, 200, 404, 404], call: async () => ({ path: base() }) },
  { op: 'get', method: 'GET', expect: [200, 200, 200, 200, 404, 404], call: async () => ({ path: `${base()}/${await spec()}` }) },
  { op: 'patch visibility', method: 'PATCH', expect: [200, 200, 403, 403, 404, 404], call: async () => ({ path: `${base()}/${await spec()}`, body: { visibility: 'public' } }) },
  { op: 'delete', method: 'DELETE', expect: [204, 204, 403, 403, 204, 204], call: async () => ({ path: `${base()}/${await spec()}` }) },
  { op: 'create', method: 'POST', expect: [201, 201, 403, 403, 404, 404], call: async () => ({ path: base(), body: { slug: `new-${++n}`, source: { text: TEXT } } }) },
  { op: 'put', method: 'PUT', expect: [201, 201, 403, 403, 404, 404], call: async () => ({ path: `${base()}/put-${++n}`, body: { source: { text: TEXT } } }) },
];

describe('OpenAPI specs', () => {
  for (const row of ROWS) {
    it(`${row.op}: ${WHO.join('/')} get ${row.expect.join('/')}/401`, async () => {
      for (const [i, who] of WHO.entries()) {
        const { path, body } = await row.call();
        const res = await t.rest(row.method, path, { token: token(who), body });
        expect(res.status, `${who}: ${JSON.stringify(res.body)}`).toBe(who === 'anonymous' ? 401 : row.expect[i]);
        if (BLIND.includes(who)) {
          const missing = await t.rest(row.method, path.replace(acme.organizationId, MISSING), { token: token(who), body });
          expect(res.body, `${who} must not tell the organization exists`).toEqual(missing.body);
        }
      }
    });
  }
});
