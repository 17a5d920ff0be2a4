import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { comments } from '../../../src/db/schema/comments';
import { newId } from '../../../src/lib/ids';
import type { TestApp } from '../../support/clients';
import type { OrgFixture } from '../../support/factories';
import { scenario } from '../../support/scenario';

/** 150 comments, many posted in the same millisecond: pages in both orders, no gap, no duplicate. */
let t: TestApp;
let acme: OrgFixture;
let spaceId: string;
let ids: string[];

beforeAll(async () => {
  ({ t, acme } = await scenario({}));
  const space = await t.rest('POST', `/v1/orgs/${acme.organizationId}/spaces`, { token: acme.admin.token, body: { title: 'Busy' } });
  spaceId = space.body.id;
  const at = (i: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, Math.floor(i / 3)));
  const rows = Array.from({ length: 150 }, (_, i) => ({ id: newId(), spaceId, revisionId: space.body.revision, body: `comment ${i}`, postedBy: acme.admin.userId, postedAt: at(i), status: i % 4 === 0 ? ('resolved' as const) : ('open' as const) }));
  await t.db.insert(comments).values(rows);
  ids = rows.map((r) => r.id);
});
afterAll(() => t?.close());

async function walk(query: string): Promise<string[]> {
  const seen: string[] = [];
  let page: string | undefined;
  do {
    const res = await t.rest('GET', `/v1/spaces/${spaceId}/comments?limit=40${query}${page ? `&page=${page}` : ''}`, { token: acme.admin.token });
    expect(res.status).toBe(200);
    seen.push(...res.body.items.map((c: { id: string }) => c.id));
    page = res.body.next?.page;
  } while (page);
  return seen;
}

describe('comment pagination', () => {
  it('walks 150 comments oldest first and newest first, each exactly once', async () => {
    const asc = await walk('&order=asc');
    const desc = await walk('&order=desc');
    expect(asc).toHaveLength(150);
    expect(new Set(asc)).toEqual(new Set(ids));
    expect(desc).toEqual([...asc].reverse());
  });

  it('filters by status in SQL, so pages stay full and counts right', async () => {
    const open = await walk('&status=open');
    const resolved = await walk('&status=resolved');
    expect(open).toHaveLength(112);
    expect(resolved).toHaveLength(38);
    const first = await t.rest('GET', `/v1/spaces/${spaceId}/comments?limit=40&status=resolved`, { token: acme.admin.token });
    expect(first.body.count).toBe(38);
  });
});
