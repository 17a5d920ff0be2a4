import { pageArgs, renderList, REST_MAX } from '../../rest/pagination';
import { bodyAs, booleanParam, optionalParam, type RestRouter } from '../../rest/router';
import type { DevModeInput, IntegrationListInput, PublishInput } from './input';
import { presentIntegration } from './present';
import { disableDevMode, getIntegration, listIntegrations, publishIntegration, setDevMode, unpublishIntegration } from './service';

const ONE = '/v1/integrations/:integrationName';

export function integrationRoutes(r: RestRouter): void {
  r.get('/v1/integrations', async ({ ctx, query }) => {
    const filter = {
      search: optionalParam(query, 'search'),
      category: optionalParam(query, 'category'),
      blockDomain: optionalParam(query, 'blockDomain'),
      blocks: booleanParam(query, 'blocks'),
      contentSources: booleanParam(query, 'contentSources'),
      owner: optionalParam(query, 'owner'),
      scope: optionalParam(query, 'scope'),
      target: optionalParam(query, 'target'),
    } as IntegrationListInput;
    return { status: 200, body: await renderList(ctx, await listIntegrations(ctx, filter, pageArgs(query), REST_MAX), presentIntegration) };
  });

  r.get(ONE, async ({ ctx, params }) => ({ status: 200, body: await presentIntegration(ctx, await getIntegration(ctx, params.integrationName)) }));

  r.post(ONE, async ({ ctx, params, body }) => ({
    status: 200,
    body: await presentIntegration(ctx, await publishIntegration(ctx, params.integrationName, bodyAs<PublishInput>(body))),
  }));

  r.delete(ONE, async ({ ctx, params }) => {
    await unpublishIntegration(ctx, params.integrationName);
    return { status: 204 };
  });

  r.put(`${ONE}/dev`, async ({ ctx, params, body }) => {
    await setDevMode(ctx, params.integrationName, bodyAs<DevModeInput>(body));
    return { status: 204 };
  });

  r.delete(`${ONE}/dev`, async ({ ctx, params }) => {
    await disableDevMode(ctx, params.integrationName);
    return { status: 204 };
  });

}
