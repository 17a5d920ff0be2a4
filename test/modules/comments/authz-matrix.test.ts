/**
 * Authorization matrix of the 22 comment operations (11 on a space, 11 on a change request): one
 * row per operation, one expected status per actor. Writes act on objects made for the cell.
 * Actors who cannot see the space get an answer byte-identical to the one for a missing space.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../support/clients';
import type { Actor, OrgFixture } from '../../support/factories';
import { scenario } from '../../support/scenario';

const WHO = ['admin', 'edit', 'comment', 'read', 'guest', 'outsider', 'anonymous'] as const;
type Who = (typeof WHO)[number];
const BLIND: Who[] = ['guest', 'outsider'];
const MISSING = 'doesNotExist00000000';

let t: TestApp;
let acme: OrgFixture;
let other: OrgFixture;
let people: Record<'edit' | 'comment' | 'read' | 'guest', Actor>;
let spaceId: string;
let crId: string;

beforeAll(async () => {
  ({ t, acme, other, people } = await scenario({ edit: ['edit'], comment: ['comment'], read: ['read'], guest: [null] }));
  spaceId = (await t.rest('POST', `/v1/orgs/${acme.organizationId}/spaces`, { token: acme.admin.token, body: { title: 'Matrix' } })).body.id;
  crId = (await t.rest('POST', `/v1/spaces/${spaceId}/change-requests`, { token: acme.admin.token, body: { subject: 'Matrix' } })).body.id;
});
afterAll(() => t?.close());

const token = (who: Who): string | null =>
  who === 'anonymous' ? null : who === 'admin' ? acme.admin.token : who === 'outsider' ? other.admin.token : people[who].token;

type Prefix = () => string;
const PREFIXES: [string, Prefix][] = [
  ['space', () => `/v1/spaces/${spaceId}`],
  ['change request', () => `/v1/spaces/${spaceId}/change-requests/${crId}`],
];

/** A comment by `author`, with one reply by the same author, made for one cell. */
async function thread(prefix: string, author: Who = 'comment') {
  const c = await t.rest('POST', `${prefix}/comments`, { token: token(author), body: { body: { markdown: 'thread' } } });
  expect(c.status).toBe(200);
  const r = await t.rest('POST', `${prefix}/comments/${c.body.id}/replies`, { token: token(author), body: { body: { markdown: 'reply' } } });
  return { comment: c.body.id as string, reply: r.body.id as string };
}

interface Row {
  op: string;
  method: string;
  /** admin, edit, comment, read, guest, outsider (anonymous always gets 401). */
  expect: [number, number, number, number, number, number];
  call: (prefix: string) => Promise<{ path: string; body?: unknown }>;
}

const ROWS: Row[] = [
  { op: 'list comments', method: 'GET', expect: [200, 200, 200, 200, 404, 404], call: async (p) => ({ path: `${p}/comments` }) },
  { op: 'post a comment', method: 'POST', expect: [200, 200, 200, 403, 404, 404], call: async (p) => ({ path: `${p}/comments`, body: { body: { markdown: 'hi' } } }) },
  { op: 'get a comment', method: 'GET', expect: [200, 200, 200, 200, 404, 404], call: async (p) => ({ path: `${p}/comments/${(await thread(p)).comment}` }) },
  { op: 'resolve a comment', method: 'PUT', expect: [200, 200, 200, 403, 404, 404], call: async (p) => ({ path: `${p}/comments/${(await thread(p)).comment}`, body: { resolved: true } }) },
  { op: 'edit a comment (its author is the comment member)', method: 'PUT', expect: [403, 403, 200, 403, 404, 404], call: async (p) => ({ path: `${p}/comments/${(await thread(p, 'comment')).comment}`, body: { body: { markdown: 'changed' } } }) },
  { op: 'react to a comment', method: 'PUT', expect: [200, 200, 200, 403, 404, 404], call: async (p) => ({ path: `${p}/comments/${(await thread(p)).comment}`, body: { addedReactions: ['👍'] } }) },
  { op: 'delete a comment', method: 'DELETE', expect: [204, 403, 204, 403, 204, 204], call: async (p) => ({ path: `${p}/comments/${(await thread(p)).comment}` }) },
  { op: 'list replies', method: 'GET', expect: [200, 200, 200, 200, 404, 404], call: async (p) => ({ path: `${p}/comments/${(await thread(p)).comment}/replies` }) },
  { op: 'post a reply', method: 'POST', expect: [200, 200, 200, 403, 404, 404], call: async (p) => ({ path: `${p}/comments/${(await thread(p)).comment}/replies`, body: { body: { markdown: 'me too' } } }) },
  {
    op: 'get a reply',
    method: 'GET',
    expect: [200, 200, 200, 200, 404, 404],
    call: async (p) => {
      const { comment, reply } = await thread(p);
      return { path: `${p}/comments/${comment}/replies/${reply}` };
    },
  },
  {
    op: 'edit a reply (its author is the comment member)',
    method: 'PUT',
    expect: [403, 403, 200, 403, 404, 404],
    call: async (p) => {
      const { comment, reply } = await thread(p);
      return { path: `${p}/comments/${comment}/replies/${reply}`, body: { body: { markdown: 'changed' } } };
    },
  },
  {
    op: 'delete a reply',
    method: 'DELETE',
    expect: [204, 403, 204, 403, 204, 204],
    call: async (p) => {
      const { comment, reply } = await thread(p);
      return { path: `${p}/comments/${comment}/replies/${reply}` };
    },
  },
  { op: 'list commenters', method: 'GET', expect: [200, 200, 200, 200, 404, 404], call: async (p) => ({ path: `${p}/commenters` }) },
];

describe.each(PREFIXES)('comments on a %s', (_name, prefix) => {
  for (const row of ROWS) {
    it(`${row.op}: ${WHO.join('/')} get ${row.expect.join('/')}/401`, async () => {
      for (const [i, who] of WHO.entries()) {
        const { path, body } = await row.call(prefix());
        const res = await t.rest(row.method, path, { token: token(who), body });
        const expected = who === 'anonymous' ? 401 : row.expect[i];
        expect(res.status, `${who}: ${JSON.stringify(res.body)}`).toBe(expected);
        if (BLIND.includes(who)) {
          const missing = await t.rest(row.method, path.replace(spaceId, MISSING), { token: token(who), body });
          expect(res.body, `${who} must not tell the space exists`).toEqual(missing.body);
        }
      }
    });
  }
});
