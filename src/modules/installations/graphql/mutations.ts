import { encodeGlobalID } from '@pothos/plugin-relay';
import { defineMutation } from '../../../graphql/mutation';
import { IntegrationRef } from '../../integrations/graphql/refs';
import { getIntegrationById } from '../../integrations/service';
import { OrganizationRef } from '../../organizations/graphql/refs';
import { SpaceRef } from '../../spaces/graphql/refs';
import { getInstallationById, installIntegration, renderIntegrationRequest, setInstallationSpaces, uninstallIntegration, updateInstallation } from '../service';
import { InstallationRef, SelectionEnum } from './refs';

const installation = (description: string) => ({ installation: { type: InstallationRef, description } });

defineMutation('integrationInstall', {
  description:
    'Installs an integration on an organization, which then gets an `installation_setup` event. Takes an admin of the organization; ' +
    'a private integration installs only on the organization that publishes it. It gets no space until given some.',
  input: (t) => ({
    integrationId: t.globalID({ for: IntegrationRef, required: true, description: 'The integration.' }),
    organizationId: t.globalID({ for: OrganizationRef, required: true, description: 'The organization to install it on.' }),
  }),
  fields: { organization: 'organizationId' },
  payload: installation('The new installation.'),
  resolve: async ({ integrationId, organizationId }, ctx) => {
    return { installation: await installIntegration(ctx, await getIntegrationById(ctx, integrationId.id), { organization: organizationId.id }) };
  },
});

defineMutation('integrationInstallationUpdate', {
  description: "Changes an installation's settings, which spaces and sites it acts on, and its external ids; the integration gets an `installation_setup` event. Takes an admin of its organization.",
  inputDescription: 'Input of integrationInstallationUpdate. Absent fields stay as they are.',
  input: (t) => ({
    installationId: t.globalID({ for: InstallationRef, required: true, description: 'The installation.' }),
    configuration: t.field({ type: 'JSON', description: "Its new settings, an object in the shape of the integration's `account` configuration schema." }),
    spaceSelection: t.field({ type: SelectionEnum, description: 'Whether it acts on every space of the organization or only on those it was given.' }),
    siteSelection: t.field({ type: SelectionEnum, description: 'Whether it acts on every site of the organization or only on those it was given.' }),
    externalIds: t.stringList({ description: 'Ids the integration gives it in other systems: at most 5, each at most 200 characters.' }),
  }),
  fields: { space_selection: 'spaceSelection', site_selection: 'siteSelection' },
  payload: installation('The installation after the change.'),
  resolve: async ({ installationId, configuration, spaceSelection, siteSelection, externalIds }, ctx) => {
    const found = await getInstallationById(ctx, installationId.id);
    const input = {
      ...(configuration != null ? { configuration: configuration as Record<string, unknown> } : {}),
      ...(spaceSelection != null ? { space_selection: spaceSelection } : {}),
      ...(siteSelection != null ? { site_selection: siteSelection } : {}),
      ...(externalIds != null ? { externalIds } : {}),
    };
    return { installation: await updateInstallation(ctx, found, input) };
  },
});

defineMutation('integrationInstallationSpacesSet', {
  description:
    'Gives an installation exactly these spaces of its organization: those missing are added, those left out taken away, each change an event for the integration. ' +
    'Its token then reaches these spaces (with `spaceSelection: SELECTED`). Takes an admin of its organization; a space you cannot see, or of another organization, refuses the whole set.',
  input: (t) => ({
    installationId: t.globalID({ for: InstallationRef, required: true, description: 'The installation.' }),
    spaceIds: t.globalIDList({ for: SpaceRef, required: true, description: 'Every space it should have, at most 1000; an empty list takes them all away.' }),
  }),
  fields: { spaces: 'spaceIds' },
  payload: installation('The installation, with its spaces after the change.'),
  resolve: async ({ installationId, spaceIds }, ctx) => {
    return { installation: await setInstallationSpaces(ctx, await getInstallationById(ctx, installationId.id), { spaces: spaceIds.map((s) => s.id) }) };
  },
});

defineMutation('integrationUninstall', {
  description: 'Uninstalls an integration from an organization: the installation, its spaces and its tokens go, and the integration gets an `installation_deleted` event. Takes an admin of the organization.',
  input: (t) => ({ installationId: t.globalID({ for: InstallationRef, required: true, description: 'The installation.' }) }),
  payload: { deletedInstallationId: { type: 'ID', description: 'Global id of the installation removed.' } },
  gone: ({ installationId }) => ({ deletedInstallationId: encodeGlobalID('IntegrationInstallation', installationId.id) }),
  resolve: async ({ installationId }, ctx) => {
    const found = await getInstallationById(ctx, installationId.id);
    await uninstallIntegration(ctx, found);
    return { deletedInstallationId: encodeGlobalID('IntegrationInstallation', found.installation.id) };
  },
});

defineMutation('integrationRender', {
  description:
    "Renders one of an integration's UI components (a block, a configuration screen) through its script, and runs the action it is given, as " +
    '`GET /v1/integrations/{name}/render` does; the `ui_render` event is recorded with the others. The caller must see the space, site or organization ' +
    'the request names, and the integration must be installed there; anyone who can see the integration may render it.',
  input: (t) => ({
    integrationId: t.globalID({ for: IntegrationRef, required: true, description: 'The integration.' }),
    request: t.field({
      type: 'JSON',
      required: true,
      description: 'The render request as the platform defines it (RenderIntegrationUI): `componentId`, `props`, `context` and optionally `state` and `action`; not LZ-compressed.',
    }),
  }),
  payload: { output: { type: 'JSON', description: "The integration's ContentKit answer: an element with its state and props, or a completion." } },
  resolve: async ({ integrationId, request }, ctx) => ({ output: (await renderIntegrationRequest(ctx, await getIntegrationById(ctx, integrationId.id), request)).output }),
});
