import type { RestRouter } from '../../rest/router';
import { pageArgs, renderList, REST_MAX } from '../../rest/pagination';
import type { RequestContext } from '../../app/context';
import { getCollection } from '../collections/service';
import { getSpace } from '../spaces/service';
import { presentTeam } from '../teams/present';
import { loadTeam } from '../teams/service';
import { presentUser } from '../users/present';
import { getUser } from '../users/service';
import { inviteToContent, listContentGrants, removeContentGrant, setContentGrant, type Content } from './service';
import type { ContentGrantRow } from './table';

/** Who has access to a space or a collection: the same seven operations under both prefixes. */
export function accessRoutes(r: RestRouter): void {
  const kinds: { prefix: string; param: string; load: (ctx: RequestContext, id: string) => Promise<Content> }[] = [
    { prefix: '/v1/spaces/:spaceId', param: 'spaceId', load: async (ctx, id) => ({ kind: 'space', row: await getSpace(ctx, id) }) },
    {
      prefix: '/v1/collections/:collectionId',
      param: 'collectionId',
      load: async (ctx, id) => ({ kind: 'collection', row: await getCollection(ctx, id) }),
    },
  ];
  for (const { prefix, param, load } of kinds) {
    r.post(`${prefix}/permissions`, async ({ ctx, params, body }) => {
      await inviteToContent(ctx, await load(ctx, params[param]), body);
      return { status: 204 };
    });

    r.get(`${prefix}/permissions/users`, async ({ ctx, params, query }) => {
      const page = await listContentGrants(ctx, await load(ctx, params[param]), 'user', pageArgs(query), REST_MAX);
      return {
        status: 200,
        body: await renderList(ctx, page, async (c, g: ContentGrantRow) => ({ permission: g.role, user: presentUser(c, await getUser(c, g.userId!)) })),
      };
    });

    r.get(`${prefix}/permissions/teams`, async ({ ctx, params, query }) => {
      const page = await listContentGrants(ctx, await load(ctx, params[param]), 'team', pageArgs(query), REST_MAX);
      return {
        status: 200,
        body: await renderList(ctx, page, async (c, g: ContentGrantRow) => ({ permission: g.role, team: await presentTeam(c, (await loadTeam(c, g.teamId!))!) })),
      };
    });

    r.patch(`${prefix}/permissions/users/:userId`, async ({ ctx, params, body }) => {
      await setContentGrant(ctx, await load(ctx, params[param]), { kind: 'user', id: params.userId }, body);
      return { status: 204 };
    });

    r.delete(`${prefix}/permissions/users/:userId`, async ({ ctx, params }) => {
      await removeContentGrant(ctx, await load(ctx, params[param]), { kind: 'user', id: params.userId });
      return { status: 204 };
    });

    r.patch(`${prefix}/permissions/teams/:teamId`, async ({ ctx, params, body }) => {
      await setContentGrant(ctx, await load(ctx, params[param]), { kind: 'team', id: params.teamId }, body);
      return { status: 204 };
    });

    r.delete(`${prefix}/permissions/teams/:teamId`, async ({ ctx, params }) => {
      await removeContentGrant(ctx, await load(ctx, params[param]), { kind: 'team', id: params.teamId });
      return { status: 204 };
    });
  }
}
