import { optionalParam, type RestRouter } from '../../rest/router';
import { pageArgs, renderList, REST_MAX } from '../../rest/pagination';
import { presentSpace } from '../spaces/present';
import { listCollectionSpaces } from '../spaces/service';
import { presentCollection } from './present';
import { createCollection, deleteCollection, getCollection, listCollections, moveCollection, transferCollection, updateCollection } from './service';

export function collectionRoutes(r: RestRouter): void {
  r.get('/v1/orgs/:organizationId/collections', async ({ ctx, params, query }) => {
    const page = await listCollections(ctx, params.organizationId, { nested: optionalParam(query, 'nested') }, pageArgs(query), REST_MAX);
    return { status: 200, body: await renderList(ctx, page, presentCollection) };
  });

  r.post('/v1/orgs/:organizationId/collections', async ({ ctx, params, body }) => {
    const collection = await presentCollection(ctx, await createCollection(ctx, params.organizationId, body));
    return { status: 201, body: collection, headers: { location: collection.urls.location } };
  });

  r.get('/v1/collections/:collectionId', async ({ ctx, params }) => ({
    status: 200,
    body: await presentCollection(ctx, await getCollection(ctx, params.collectionId)),
  }));

  r.patch('/v1/collections/:collectionId', async ({ ctx, params, body }) => ({
    status: 200,
    body: await presentCollection(ctx, await updateCollection(ctx, params.collectionId, body)),
  }));

  r.delete('/v1/collections/:collectionId', async ({ ctx, params }) => {
    await deleteCollection(ctx, params.collectionId);
    return { status: 204 };
  });

  r.get('/v1/collections/:collectionId/spaces', async ({ ctx, params, query }) => {
    const page = await listCollectionSpaces(ctx, params.collectionId, pageArgs(query), REST_MAX);
    return { status: 200, body: await renderList(ctx, page, presentSpace) };
  });

  r.post('/v1/collections/:collectionId/move', async ({ ctx, params, body }) => ({
    status: 200,
    body: await presentCollection(ctx, await moveCollection(ctx, params.collectionId, body)),
  }));

  r.post('/v1/collections/:collectionId/transfer', async ({ ctx, params, body }) => ({
    status: 200,
    body: await presentCollection(ctx, await transferCollection(ctx, params.collectionId, body)),
  }));
}
