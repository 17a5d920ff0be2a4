import { encodeGlobalID } from '@pothos/plugin-relay';
import { defineMutation } from '../../../graphql/mutation';
import { disableDevMode, getIntegration, getIntegrationById, setDevMode, unpublishIntegration } from '../service';
import { IntegrationRef } from './refs';

const OWNER_ADMINS = 'Takes an admin of the organization that publishes it.';

defineMutation('integrationDevModeSet', {
  description:
    "Turns dev mode on (or changes it): the integration's events go to a tunnel instead of its published script, as `PUT /v1/integrations/{name}/dev` does. " +
    `The tunnel must be a public http(s) address. ${OWNER_ADMINS}`,
  input: (t) => ({
    integrationId: t.globalID({ for: IntegrationRef, required: true, description: 'The integration.' }),
    tunnelUrl: t.string({ required: true, description: 'Where to send events, at most 256 characters.' }),
    all: t.boolean({ description: 'Send events of every organization there, not only those of the publisher; false when absent.' }),
  }),
  payload: { integration: { type: IntegrationRef, description: 'The integration, in dev mode.' } },
  resolve: async ({ integrationId, tunnelUrl, all }, ctx) => {
    const row = await getIntegrationById(ctx, integrationId.id);
    return { integration: await setDevMode(ctx, row.name, { tunnelUrl, ...(all != null ? { all } : {}) }) };
  },
});

defineMutation('integrationDevModeDisable', {
  description: `Turns dev mode off: events go to the published script again, as \`DELETE /v1/integrations/{name}/dev\` does. ${OWNER_ADMINS}`,
  input: (t) => ({ integrationId: t.globalID({ for: IntegrationRef, required: true, description: 'The integration.' }) }),
  payload: { integration: { type: IntegrationRef, description: 'The integration, out of dev mode.' } },
  resolve: async ({ integrationId }, ctx) => {
    const row = await getIntegrationById(ctx, integrationId.id);
    await disableDevMode(ctx, row.name);
    return { integration: await getIntegration(ctx, row.name) };
  },
});

defineMutation('integrationUnpublish', {
  description: `Unpublishes an integration: it is gone with its installations, as \`DELETE /v1/integrations/{name}\` does. ${OWNER_ADMINS}`,
  input: (t) => ({ integrationId: t.globalID({ for: IntegrationRef, required: true, description: 'The integration.' }) }),
  payload: { deletedIntegrationId: { type: 'ID', description: 'The global ID it had.' } },
  resolve: async ({ integrationId }, ctx) => {
    const row = await getIntegrationById(ctx, integrationId.id);
    await unpublishIntegration(ctx, row.name);
    return { deletedIntegrationId: encodeGlobalID('Integration', row.id) };
  },
});
