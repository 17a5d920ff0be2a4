/**
 * A deleted space in its 7-day restore window, as the API document shows it: `GET /v1/spaces/{id}`
 * answers it with `deletedAt` set (and GraphQL's node agrees); it is out of every list; every other
 * operation treats it as missing; after the window it is gone from GET too.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../support/clients';
import { gid } from '../../support/doors';
import type { OrgFixture } from '../../support/factories';
import { scenario } from '../../support/scenario';

let t: TestApp, acme: OrgFixture, other: OrgFixture;
const DAY = 24 * 3600 * 1000;

beforeAll(async () => {
  ({ t, acme, other } = await scenario({}));
});
afterAll(() => t.close());

const admin = () => acme.admin.token;
const newSpace = async (title: string) => (await t.rest('POST', `/v1/orgs/${acme.organizationId}/spaces`, { token: admin(), body: { title } })).body;
const nodeOf = async (id: string, token = admin()) => (await t.graphql('query($id: ID!) { node(id: $id) { ... on Space { restId title deletedAt } } }', { id: gid('Space', id) }, token)).body;

describe('a deleted space within its restore window', () => {
  it('GET answers it with deletedAt, and GraphQL node shows the same', async () => {
    const space = await newSpace('Trashed');
    const start = Date.now();
    try {
      t.clock.now = new Date(start);
      expect((await t.rest('DELETE', `/v1/spaces/${space.id}`, { token: admin() })).status).toBe(204);
      t.clock.now = new Date(start + DAY);
      const res = await t.rest('GET', `/v1/spaces/${space.id}`, { token: admin() });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ object: 'space', id: space.id, title: 'Trashed', deletedAt: new Date(start).toISOString() });
      expect((await nodeOf(space.id)).data).toEqual({ node: { restId: space.id, title: 'Trashed', deletedAt: new Date(start).toISOString() } });
    } finally {
      t.clock.now = null;
    }
  });

  it('is answered as missing to a caller who could not see it, and stays out of lists', async () => {
    const space = await newSpace('Hidden in trash');
    await t.rest('DELETE', `/v1/spaces/${space.id}`, { token: admin() });
    expect((await t.rest('GET', `/v1/spaces/${space.id}`, { token: other.admin.token })).status).toBe(404);
    expect((await nodeOf(space.id, other.admin.token)).data.node).toBeNull();
    const list = await t.rest('GET', `/v1/orgs/${acme.organizationId}/spaces?limit=1000`, { token: admin() });
    expect(list.body.items.map((s: { id: string }) => s.id)).not.toContain(space.id);
  });

  it('other operations treat it as missing; restore brings it back without deletedAt', async () => {
    const space = await newSpace('Frozen');
    await t.rest('DELETE', `/v1/spaces/${space.id}`, { token: admin() });
    expect((await t.rest('PATCH', `/v1/spaces/${space.id}`, { token: admin(), body: { title: 'Changed' } })).status).toBe(404);
    expect((await t.rest('POST', `/v1/spaces/${space.id}/duplicate`, { token: admin() })).status).toBe(404);
    expect((await t.rest('GET', `/v1/spaces/${space.id}/content`, { token: admin() })).status).toBe(404);
    expect((await t.rest('DELETE', `/v1/spaces/${space.id}`, { token: admin() })).status).toBe(204);
    expect((await t.rest('POST', `/v1/spaces/${space.id}/restore`, { token: admin() })).status).toBe(200);
    const back = await t.rest('GET', `/v1/spaces/${space.id}`, { token: admin() });
    expect(back.body.title).toBe('Frozen');
    expect(back.body).not.toHaveProperty('deletedAt');
    expect((await nodeOf(space.id)).data.node.deletedAt).toBeNull();
  });

  it('once the 7 days have passed, GET answers 404 and node is null, as for a missing space', async () => {
    const space = await newSpace('Expired');
    const start = Date.now();
    try {
      t.clock.now = new Date(start);
      await t.rest('DELETE', `/v1/spaces/${space.id}`, { token: admin() });
      t.clock.now = new Date(start + 7 * DAY + 1000);
      const res = await t.rest('GET', `/v1/spaces/${space.id}`, { token: admin() });
      expect(res.status).toBe(404);
      expect(res.body).toEqual((await t.rest('GET', '/v1/spaces/noSuchSpace000000000', { token: admin() })).body);
      expect((await nodeOf(space.id)).data.node).toBeNull();
    } finally {
      t.clock.now = null;
    }
  });
});
