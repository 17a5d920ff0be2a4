import { expect } from 'vitest';
import type { TestApp } from './clients';
import { inCreationOrder } from './clock';
import type { OrgFixture } from './factories';

type Json = Record<string, any>;

export interface ContentOptions {
  /** Creates through `inCreationOrder`, so that lists in creation order have one answer. */
  inCreationOrder?: boolean;
}

/**
 * Spaces and collections made through /v1 by an organization's admin, and list readers. `app` and
 * `org` are read at each call, so they may be called before `beforeAll` has built them; `org` is
 * the organization used when a call names none.
 */
export function contentHelpers(app: () => TestApp, org: () => OrgFixture, options: ContentOptions = {}) {
  /** Runs a creation; with `inCreationOrder`, at a server time strictly after the previous one. */
  const created = options.inCreationOrder ? inCreationOrder(app) : <T>(fn: () => Promise<T>) => fn();

  async function create(kind: 'spaces' | 'collections', title: string, body: Json, owner: OrgFixture): Promise<Json> {
    const res = await created(() =>
      app().rest('POST', `/v1/orgs/${owner.organizationId}/${kind}`, { token: owner.admin.token, body: { title, ...body } }),
    );
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body;
  }

  return {
    created,
    /** A space (titled "Space" unless `body` says otherwise) made by `owner`'s admin: it must answer 201. */
    newSpace: (body: Json = {}, owner: OrgFixture = org()) => create('spaces', 'Space', body, owner),
    /** A collection (titled "Collection" unless `body` says otherwise) made by `owner`'s admin: it must answer 201. */
    newCollection: (body: Json = {}, owner: OrgFixture = org()) => create('collections', 'Collection', body, owner),
    /** The ids on the first page of a list, which must answer 200. */
    async listIds(path: string, token: string = org().admin.token): Promise<string[]> {
      const res = await app().rest('GET', path, { token });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.items.map((s: Json) => s.id);
    },
    /** Every page of a list, `limit` at a time, following `next.page`; each must answer 200. */
    async allPages(path: string, limit: number, token: string): Promise<{ pages: Json[]; ids: string[] }> {
      const pages: Json[] = [];
      let page: string | undefined;
      do {
        const sep = path.includes('?') ? '&' : '?';
        const res = await app().rest('GET', `${path}${sep}limit=${limit}${page ? `&page=${encodeURIComponent(page)}` : ''}`, { token });
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        pages.push(res.body);
        page = res.body.next?.page;
      } while (page);
      return { pages, ids: pages.flatMap((p) => p.items.map((s: Json) => s.id)) };
    },
  };
}
