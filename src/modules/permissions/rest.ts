import type { RequestContext } from '../../context/request-context';
import { pageArgs, renderList, REST_MAX } from '../../rest/pagination';
import { bodyAs, type RestRouter } from '../../rest/router';
import { getCollection } from '../collections/service';
import { getSpace } from '../spaces/service';
import { presentTeam } from '../teams/present';
import { presentUser } from '../users/present';
import type { GrantInviteInput, GrantRoleInput } from './input';
import {
  inviteToContent,
  listTeamGrants,
  listUserGrants,
  removeContentGrant,
  setContentGrant,
  teamGrantee,
  userGrantee,
  type Content,
} from './service';

/** Who has access to a space or a collection: the same seven operations under both prefixes. */
export function permissionRoutes(r: RestRouter): void {
  const kinds: { prefix: string; param: string; load: (ctx: RequestContext, id: string) => Promise<Content> }[] = [
    { prefix: '/v1/spaces/:spaceId', param: 'spaceId', load: async (ctx, id) => ({ kind: 'space', row: await getSpace(ctx, id) }) },
    { prefix: '/v1/collections/:collectionId', param: 'collectionId', load: async (ctx, id) => ({ kind: 'collection', row: await getCollection(ctx, id) }) },
  ];
  for (const { prefix, param, load } of kinds) {
    r.post(`${prefix}/permissions`, async ({ ctx, params, body }) => {
      await inviteToContent(ctx, await load(ctx, params[param]), bodyAs<GrantInviteInput>(body));
      return { status: 204 };
    });

    r.get(`${prefix}/permissions/users`, async ({ ctx, params, query }) => {
      const page = await listUserGrants(ctx, await load(ctx, params[param]), pageArgs(query), REST_MAX);
      return { status: 200, body: await renderList(ctx, page, async (c, g) => ({ permission: g.role, user: await presentUser(c, g.user) })) };
    });

    r.get(`${prefix}/permissions/teams`, async ({ ctx, params, query }) => {
      const page = await listTeamGrants(ctx, await load(ctx, params[param]), pageArgs(query), REST_MAX);
      return { status: 200, body: await renderList(ctx, page, async (c, g) => ({ permission: g.role, team: await presentTeam(c, g.team) })) };
    });

    r.patch(`${prefix}/permissions/users/:userId`, async ({ ctx, params, body }) => {
      await setContentGrant(ctx, await load(ctx, params[param]), userGrantee(params.userId), bodyAs<GrantRoleInput>(body));
      return { status: 204 };
    });

    r.delete(`${prefix}/permissions/users/:userId`, async ({ ctx, params }) => {
      await removeContentGrant(ctx, await load(ctx, params[param]), userGrantee(params.userId));
      return { status: 204 };
    });

    r.patch(`${prefix}/permissions/teams/:teamId`, async ({ ctx, params, body }) => {
      await setContentGrant(ctx, await load(ctx, params[param]), teamGrantee(params.teamId), bodyAs<GrantRoleInput>(body));
      return { status: 204 };
    });

    r.delete(`${prefix}/permissions/teams/:teamId`, async ({ ctx, params }) => {
      await removeContentGrant(ctx, await load(ctx, params[param]), teamGrantee(params.teamId));
      return { status: 204 };
    });
  }
}
