import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../support/clients';
import type { OrgFixture } from '../../support/factories';
import { scenario } from '../../support/scenario';
import { contentBench, type ChangeRequestRef } from '../../support/change-requests';
import { gid } from '../../support/doors';

/**
 * Merges racing into one space: each either lands or answers a clean 409 that a retry settles;
 * none is lost and the space's history holds every merge. On PostgreSQL the requests run on
 * separate connections, so they truly overlap; PGlite serializes them.
 */
let t: TestApp;
let acme: OrgFixture;

beforeAll(async () => {
  ({ t, acme } = await scenario({}));
});
afterAll(() => t?.close());

const N = 8;
const REVISION = 'query ($id: ID!) { node(id: $id) { ... on Revision { restId type parents } } }';

async function mergeWithRetry(spaceId: string, cr: ChangeRequestRef): Promise<{ attempts: number; revision: string }> {
  for (let attempt = 1; attempt <= N + 1; attempt++) {
    const res = await t.rest('POST', `/v1/spaces/${spaceId}/change-requests/${cr.id}/merge`, { token: acme.admin.token });
    if (res.status === 200) {
      expect(res.body.result).toBe('merge');
      return { attempts: attempt, revision: res.body.revision };
    }
    expect(res.status, JSON.stringify(res.body)).toBe(409);
    expect(res.body.error.message).toMatch(/try again/);
  }
  throw new Error('a merge never landed');
}

describe('parallel merges', () => {
  it(`merges ${N} change requests at once without losing any`, async () => {
    const titles = Array.from({ length: N }, (_, i) => `Page ${i}`);
    const b = await contentBench(() => t, () => acme, titles.map((title) => ({ title, markdown: `${title}: as it was` })));
    const crs: ChangeRequestRef[] = [];
    for (const title of titles) {
      const cr = await b.openChangeRequest(`Edit ${title}`);
      await b.editor(cr).update(title, { markdown: `${title}: edited` });
      crs.push(cr);
    }
    const start = (await b.revision()).id;

    const results = await Promise.all(crs.map((cr) => mergeWithRetry(b.spaceId, cr)));

    const pages = await b.pagesByTitle();
    for (const title of titles) expect(pages[title].markdown).toBe(`${title}: edited`);
    for (const cr of crs) expect((await t.rest('GET', `/v1/spaces/${b.spaceId}/change-requests/${cr.id}`, { token: acme.admin.token })).body.status).toBe('merged');

    // Walk first parents back to where it started: one merge revision per change request.
    const merges: string[] = [];
    let at = (await b.revision()).id;
    while (at !== start) {
      const rev = (await t.graphql(REVISION, { id: gid('Revision', at) }, acme.admin.token)).body.data.node;
      expect(rev.type).toBe('merge');
      merges.push(rev.restId);
      at = rev.parents[0];
    }
    expect(merges.sort()).toEqual(results.map((r) => r.revision).sort());
    expect(merges).toHaveLength(N);
  });
});
