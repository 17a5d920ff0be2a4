import { encodeGlobalID } from '@pothos/plugin-relay';
import { defineMutation } from '../../../graphql/mutation';
import { builder } from '../../../graphql/builder';
import { OrganizationRef } from '../../organizations/graphql/refs';
import { disableDevMode, getIntegration, getIntegrationById, publishIntegration, setDevMode, unpublishIntegration } from '../service';
import type { PublishInput } from '../input';
import { IntegrationRef } from './refs';
import { IntegrationCategoryEnum, IntegrationTargetEnum, IntegrationVisibilityEnum } from './types';

const OWNER_ADMINS = 'Takes an admin of the organization that publishes it.';

const ExternalLinkInput = builder.inputType('IntegrationExternalLinkInput', {
  description: 'A link the publisher gives with the integration.',
  fields: (t) => ({
    url: t.string({ required: true, description: 'An http(s) URL.' }),
    label: t.string({ required: true, description: 'Its label.' }),
  }),
});

defineMutation('integrationPublish', {
  description:
    'Publishes an integration under a new name, or a new version of one, as `POST /v1/integrations/{name}` (the CLI\'s `publish`) does: its script, manifest and listing. ' +
    `A name another organization publishes is a CONFLICT. Takes an admin of the publishing organization; a new version, an admin of the organization that publishes it.`,
  input: (t) => ({
    name: t.string({ required: true, description: 'Its unique name, a domain-like slug such as `my-integration`.' }),
    organizationId: t.globalID({ for: OrganizationRef, required: true, description: 'The organization that publishes it.' }),
    title: t.string({ required: true, description: 'Title, 2 to 30 characters.' }),
    description: t.string({ required: true, description: 'Short description, at most 100 characters.' }),
    summary: t.string({ description: 'Longer description in Markdown, at most 2048 characters.' }),
    script: t.string({ required: true, description: 'The bundled ES module it runs, at most 10 MB.' }),
    runtime: t.string({ description: 'The runtime it targets, v1 or v2; v1 when absent.' }),
    scopes: t.stringList({ required: true, description: 'Permissions its tokens get, such as `space:content:read`.' }),
    visibility: t.field({ type: IntegrationVisibilityEnum, description: 'Who may see and install it; PRIVATE when absent.' }),
    target: t.field({ type: IntegrationTargetEnum, description: 'What it is installed on; ALL when absent.' }),
    categories: t.field({ type: [IntegrationCategoryEnum], description: 'How it is filed.' }),
    icon: t.string({ description: 'Its icon, base64, at most 250 KB.' }),
    previewImages: t.stringList({ description: 'Up to 3 preview images, base64, each at most 1 MB.' }),
    externalLinks: t.field({ type: [ExternalLinkInput], description: 'Up to 5 links.' }),
    blocks: t.field({ type: 'JSON', description: 'The blocks it offers, as the platform manifest lists them.' }),
    contentSources: t.field({ type: 'JSON', description: 'The content sources it offers, as the platform manifest lists them.' }),
    configurations: t.field({ type: 'JSON', description: 'JSON schemas of its settings: `{ account, space, site }`.' }),
    secrets: t.field({ type: 'JSON', description: 'Up to 20 named string secrets its script reads; stored encrypted, never shown again.' }),
    contentSecurityPolicy: t.field({ type: 'JSON', description: 'The Content-Security-Policy of its UI: a string or an object of directives.' }),
  }),
  fields: { organization: 'organizationId' },
  payload: { integration: { type: IntegrationRef, description: 'The integration as published.' } },
  resolve: async ({ name, organizationId, ...rest }, ctx) => {
    const input: Record<string, unknown> = { organization: organizationId.id };
    // Absent and null both mean "not given"; the service checks every part against the manifest's schema.
    for (const [key, value] of Object.entries(rest)) if (value != null) input[key] = value;
    return { integration: await publishIntegration(ctx, name, input as PublishInput) };
  },
});

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
  payload: { integration: { type: IntegrationRef, description: 'The integration, out of dev mode; null when there is none the caller can see.' } },
  gone: () => ({}),
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
  gone: ({ integrationId }) => ({ deletedIntegrationId: encodeGlobalID('Integration', integrationId.id) }),
  resolve: async ({ integrationId }, ctx) => {
    const row = await getIntegrationById(ctx, integrationId.id);
    await unpublishIntegration(ctx, row.name);
    return { deletedIntegrationId: encodeGlobalID('Integration', row.id) };
  },
});
