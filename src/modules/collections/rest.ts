import { pageArgs, renderList, REST_MAX } from '../../rest/pagination';
import { bodyAs, optionalParam, type RestRouter } from '../../rest/router';
import { moveInputFromRest } from '../placement/present';
import type { TransferInput } from '../placement/service';
import type { CollectionCreateInput, CollectionUpdateInput } from './input';
import { presentCollection } from './present';
import { createCollection, deleteCollection, getCollection, listCollections, moveCollection, transferCollection, updateCollection } from './service';

export function collectionRoutes(r: RestRouter): void {
  r.get('/v1/orgs/:organizationId/collections', async ({ ctx, params, query }) => {
    const page = await listCollections(ctx, params.organizationId, { nested: optionalParam(query, 'nested') as 'true' | 'false' | undefined }, pageArgs(query), REST_MAX);
    return { status: 200, body: await renderList(ctx, page, presentCollection) };
  });

  r.post('/v1/orgs/:organizationId/collections', async ({ ctx, params, body }) => {
    const collection = await presentCollection(ctx, await createCollection(ctx, params.organizationId, bodyAs<CollectionCreateInput>(body)));
    return { status: 201, body: collection, headers: { location: collection.urls.location } };
  });

  r.get('/v1/collections/:collectionId', async ({ ctx, params }) => ({
    status: 200,
    body: await presentCollection(ctx, await getCollection(ctx, params.collectionId)),
  }));

  r.patch('/v1/collections/:collectionId', async ({ ctx, params, body }) => ({
    status: 200,
    body: await presentCollection(ctx, await updateCollection(ctx, params.collectionId, bodyAs<CollectionUpdateInput>(body))),
  }));

  r.delete('/v1/collections/:collectionId', async ({ ctx, params }) => {
    await deleteCollection(ctx, params.collectionId);
    return { status: 204 };
  });

  r.post('/v1/collections/:collectionId/move', async ({ ctx, params, body }) => ({
    status: 200,
    body: await presentCollection(ctx, await moveCollection(ctx, params.collectionId, moveInputFromRest(body))),
  }));

  r.post('/v1/collections/:collectionId/transfer', async ({ ctx, params, body }) => ({
    status: 200,
    body: await presentCollection(ctx, await transferCollection(ctx, params.collectionId, bodyAs<TransferInput>(body))),
  }));
}
