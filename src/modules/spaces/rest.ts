import { pageArgs, renderList, REST_MAX } from '../../rest/pagination';
import { bodyAs, optionalParam, type RestRouter } from '../../rest/router';
import type { OrderInput } from '../../domain/page';
import { moveInputFromRest } from '../placement/present';
import type { TransferInput } from '../placement/service';
import { spaceCreateSchema, type SpaceCreateInput, type SpaceUpdateInput } from './input';
import { getSpaceWithShareKey } from '../sites/service';
import { presentSpace } from './present';
import {
  createSpace,
  deleteSpace,
  duplicateSpace,
  getSpaceOrRestorable,
  listCollectionSpaces,
  listMemberSpaces,
  listOrganizationSpaces,
  moveSpace,
  restoreSpace,
  transferSpace,
  updateSpace,
} from './service';

export function spaceRoutes(r: RestRouter): void {
  r.get('/v1/orgs/:organizationId/spaces', async ({ ctx, params, query }) => {
    const page = await listOrganizationSpaces(ctx, params.organizationId, pageArgs(query), REST_MAX);
    return { status: 200, body: await renderList(ctx, page, presentSpace) };
  });

  r.post(
    '/v1/orgs/:organizationId/spaces',
    async ({ ctx, params, body }) => {
      const space = await presentSpace(ctx, await createSpace(ctx, params.organizationId, bodyAs<SpaceCreateInput>(body)));
      return { status: 201, body: space, headers: { location: space.urls.location } };
    },
    // The schema createSpace checks the body with: the API reference shows what is really accepted.
    { body: spaceCreateSchema },
  );

  r.get('/v1/collections/:collectionId/spaces', async ({ ctx, params, query }) => {
    const page = await listCollectionSpaces(ctx, params.collectionId, pageArgs(query), REST_MAX);
    return { status: 200, body: await renderList(ctx, page, presentSpace) };
  });

  r.get('/v1/orgs/:organizationId/members/:userId/spaces', async ({ ctx, params, query }) => {
    const order = { order: optionalParam(query, 'order') } as OrderInput;
    const page = await listMemberSpaces(ctx, params.organizationId, params.userId, order, pageArgs(query), REST_MAX);
    return { status: 200, body: await renderList(ctx, page, async (c, item) => ({ permission: item.role, space: await presentSpace(c, item.space) })) };
  });

  // `shareKey` resolves published URLs of share-link sites; sites do not exist yet, so it changes nothing.
  r.get('/v1/spaces/:spaceId', async ({ ctx, params, query }) => {
    const shareKey = optionalParam(query, 'shareKey');
    const space = shareKey ? await getSpaceWithShareKey(ctx, params.spaceId, shareKey) : await getSpaceOrRestorable(ctx, params.spaceId);
    return { status: 200, body: await presentSpace(ctx, space) };
  });

  r.patch('/v1/spaces/:spaceId', async ({ ctx, params, body }) => ({
    status: 200,
    body: await presentSpace(ctx, await updateSpace(ctx, params.spaceId, bodyAs<SpaceUpdateInput>(body))),
  }));

  r.delete('/v1/spaces/:spaceId', async ({ ctx, params }) => {
    await deleteSpace(ctx, params.spaceId);
    return { status: 204 };
  });

  r.post('/v1/spaces/:spaceId/duplicate', async ({ ctx, params }) => {
    const space = await presentSpace(ctx, await duplicateSpace(ctx, params.spaceId));
    return { status: 201, body: space, headers: { location: space.urls.location } };
  });

  r.post('/v1/spaces/:spaceId/restore', async ({ ctx, params }) => ({
    status: 200,
    body: await presentSpace(ctx, await restoreSpace(ctx, params.spaceId)),
  }));

  r.post('/v1/spaces/:spaceId/move', async ({ ctx, params, body }) => ({
    status: 200,
    body: await presentSpace(ctx, await moveSpace(ctx, params.spaceId, moveInputFromRest(body))),
  }));

  r.post('/v1/spaces/:spaceId/transfer', async ({ ctx, params, body }) => ({
    status: 200,
    body: await presentSpace(ctx, await transferSpace(ctx, params.spaceId, bodyAs<TransferInput>(body))),
  }));
}
