import { encodeGlobalID } from '@pothos/plugin-relay';
import { builder } from '../../../graphql/builder';
import { orNull } from '../../../graphql/errors';
import { defineMutation } from '../../../graphql/mutation';
import type { PageArgs } from '../../../domain/page';
import { batchedConnection, connectionArgs, GRAPHQL_MAX, pageToConnection, totalCountField } from '../../../graphql/relay';
import type { InstallationRow, SiteInstallationRow, SpaceInstallationRow } from '../../../db/schema/installations';
import { IntegrationRef } from '../../integrations/graphql/refs';
import { SiteRef } from '../../sites/graphql/refs';
import { getSiteById } from '../../sites/service';
import { SpaceRef } from '../../spaces/graphql/refs';
import { getSpace } from '../../spaces/service';
import {
  createInstallationToken,
  findSiteInstallation,
  findSpaceInstallation,
  getInstallationById,
  installIntegrationOnSite,
  listSiteInstallations,
  listSpaceInstallations,
  listSiteInstallationsOf,
  listSpaceInstallationsOf,
  uninstallIntegrationFromSite,
  updateIntegrationSiteInstallation,
  updateSpaceInstallation,
} from '../service';
import { InstallationRef } from './refs';
import { InstallationStatusEnum } from './types';

/*
 * What an installation keeps for each site and space it was given (REST's
 * `.../installations/{id}/sites/{siteId}` and `.../spaces/{spaceId}`), and the operations on them.
 * They have no id of their own: their global ID stands for the pair (installation, site or space).
 */

export const SiteInstallationRef = builder.objectRef<SiteInstallationRow>('IntegrationSiteInstallation');
export const SpaceInstallationRef = builder.objectRef<SpaceInstallationRow>('IntegrationSpaceInstallation');

const pair = (id: string): [string, string] => {
  const at = id.indexOf('/');
  return at < 0 ? [id, ''] : [id.slice(0, at), id.slice(at + 1)];
};

builder.node(SiteInstallationRef, {
  description: 'A site an installation was given, with what the integration keeps for it. Whoever sees the installation sees it.',
  id: { resolve: (r) => `${r.installationId}/${r.siteId}` },
  loadOne: async (id, ctx) => {
    const [installationId, siteId] = pair(id);
    return orNull(getInstallationById(ctx, installationId).then((found) => findSiteInstallation(ctx, found, siteId)));
  },
  fields: (t) => ({
    status: t.field({ type: InstallationStatusEnum, description: 'Whether it acts on the site.', resolve: (r) => r.status }),
    configuration: t.field({ type: 'JSON', description: "Its settings for the site, in the shape of the integration's `site` configuration schema.", resolve: (r) => r.configuration }),
    externalIds: t.exposeStringList('externalIds', { description: 'Ids the integration gave it in other systems (at most 5).' }),
    site: t.field({ type: SiteRef, nullable: true, description: 'The site; null when you may not see it.', resolve: (r, _, ctx) => orNull(getSiteById(ctx, r.siteId)) }),
    installation: t.field({ type: InstallationRef, description: 'The installation.', resolve: async (r, _, ctx) => (await getInstallationById(ctx, r.installationId)).installation }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When the site was given.' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime', description: 'When its settings last changed.' }),
  }),
});

builder.node(SpaceInstallationRef, {
  description: 'A space an installation was given, with what the integration keeps for it. Whoever sees the installation sees it.',
  id: { resolve: (r) => `${r.installationId}/${r.spaceId}` },
  loadOne: async (id, ctx) => {
    const [installationId, spaceId] = pair(id);
    return orNull(getInstallationById(ctx, installationId).then((found) => findSpaceInstallation(ctx, found, spaceId)));
  },
  fields: (t) => ({
    status: t.field({ type: InstallationStatusEnum, description: 'Whether it acts on the space.', resolve: (r) => r.status }),
    configuration: t.field({ type: 'JSON', description: "Its settings for the space, in the shape of the integration's `space` configuration schema.", resolve: (r) => r.configuration }),
    externalIds: t.exposeStringList('externalIds', { description: 'Ids the integration gave it in other systems (at most 5).' }),
    space: t.field({ type: SpaceRef, nullable: true, description: 'The space; null when you may not see it.', resolve: (r, _, ctx) => orNull(getSpace(ctx, r.spaceId)) }),
    installation: t.field({ type: InstallationRef, description: 'The installation.', resolve: async (r, _, ctx) => (await getInstallationById(ctx, r.installationId)).installation }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When the space was given.' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime', description: 'When its settings last changed.' }),
  }),
});

const SiteInstallationConnection = builder.connectionObject(
  { type: SiteInstallationRef, name: 'IntegrationSiteInstallationConnection', description: 'A page of site installations.', fields: totalCountField },
  { name: 'IntegrationSiteInstallationEdge', description: 'A site installation in a page, with its cursor.' },
);
const SpaceInstallationConnection = builder.connectionObject(
  { type: SpaceInstallationRef, name: 'IntegrationSpaceInstallationConnection', description: 'A page of space installations.', fields: totalCountField },
  { name: 'IntegrationSpaceInstallationEdge', description: 'A space installation in a page, with its cursor.' },
);

// Every installation of the request asking for the same window shares one statement.
const sitesBatch = batchedConnection('IntegrationInstallation.siteInstallations', (ctx, installations: readonly InstallationRow[], args: PageArgs) => listSiteInstallationsOf(ctx, installations, args, GRAPHQL_MAX));
const spacesBatch = batchedConnection('IntegrationInstallation.spaceInstallations', (ctx, installations: readonly InstallationRow[], args: PageArgs) => listSpaceInstallationsOf(ctx, installations, args, GRAPHQL_MAX));

builder.objectFields(InstallationRef, (t) => ({
  siteInstallations: t.connection(
    { type: SiteInstallationRef, description: 'The sites it was given, with their settings, oldest first.', resolve: (i, args, ctx, info) => sitesBatch(i, args, ctx, info) },
    SiteInstallationConnection,
  ),
  spaceInstallations: t.connection(
    {
      type: SpaceInstallationRef,
      description: 'The spaces it was given, with their settings, oldest first (`spaces` lists the spaces themselves).',
      resolve: (i, args, ctx, info) => spacesBatch(i, args, ctx, info),
    },
    SpaceInstallationConnection,
  ),
}));

const EXTERNAL_ID = 'Only those the integration gave this external id.';
const OPERATORS = 'For the integration itself and the admins of its publisher; others get a FORBIDDEN error here.';

builder.objectFields(IntegrationRef, (t) => ({
  siteInstallations: t.connection(
    {
      type: SiteInstallationRef,
      nullable: true,
      description: `Every site its installations were given, newest first. ${OPERATORS}`,
      args: { externalId: t.arg.string({ description: EXTERNAL_ID }) },
      resolve: async (i, { externalId, ...args }, ctx) => pageToConnection(await listSiteInstallations(ctx, i.name, externalId ?? undefined, connectionArgs(args), GRAPHQL_MAX)),
    },
    SiteInstallationConnection,
  ),
  spaceInstallations: t.connection(
    {
      type: SpaceInstallationRef,
      nullable: true,
      description: `Every space its installations were given, newest first. ${OPERATORS}`,
      args: { externalId: t.arg.string({ description: EXTERNAL_ID }) },
      resolve: async (i, { externalId, ...args }, ctx) => pageToConnection(await listSpaceInstallations(ctx, i.name, externalId ?? undefined, connectionArgs(args), GRAPHQL_MAX)),
    },
    SpaceInstallationConnection,
  ),
}));

const ADMINS = 'Takes an admin of its organization.';

defineMutation('integrationSiteInstall', {
  description: `Gives an installation a site of its organization; the integration gets a \`site_installation_setup\` event. A site it already has is a CONFLICT. ${ADMINS}`,
  input: (t) => ({
    installationId: t.globalID({ for: InstallationRef, required: true, description: 'The installation.' }),
    siteId: t.globalID({ for: SiteRef, required: true, description: 'A site of its organization.' }),
  }),
  payload: { siteInstallation: { type: SiteInstallationRef, description: 'The site, as the installation now has it.' } },
  resolve: async ({ installationId, siteId }, ctx) => ({ siteInstallation: await installIntegrationOnSite(ctx, await getInstallationById(ctx, installationId.id), { siteId: siteId.id }) }),
});

const contentUpdateInput = (t: Parameters<Parameters<typeof defineMutation>[1]['input']>[0]) => ({
  configuration: t.field({ type: 'JSON', description: "New settings, in the shape of the integration's configuration schema." }),
  externalIds: t.stringList({ description: 'Ids the integration gives it in other systems: at most 5, each at most 200 characters.' }),
});

const defined = (configuration: unknown, externalIds: string[] | null | undefined) => ({
  ...(configuration != null ? { configuration: configuration as Record<string, unknown> } : {}),
  ...(externalIds != null ? { externalIds } : {}),
});

defineMutation('integrationSiteInstallationUpdate', {
  inputDescription: 'Input of integrationSiteInstallationUpdate. Absent fields stay as they are.',
  description: `Changes what an installation keeps for one of its sites; the integration gets a \`site_installation_setup\` event. ${ADMINS}`,
  input: (t) => ({
    installationId: t.globalID({ for: InstallationRef, required: true, description: 'The installation.' }),
    siteId: t.globalID({ for: SiteRef, required: true, description: 'A site it was given.' }),
    ...contentUpdateInput(t),
  }),
  payload: { siteInstallation: { type: SiteInstallationRef, description: 'The site installation after the change.' } },
  resolve: async ({ installationId, siteId, configuration, externalIds }, ctx) => ({
    siteInstallation: await updateIntegrationSiteInstallation(ctx, await getInstallationById(ctx, installationId.id), siteId.id, defined(configuration, externalIds)),
  }),
});

defineMutation('integrationSiteUninstall', {
  description: `Takes a site away from an installation; the integration gets a \`site_installation_deleted\` event. ${ADMINS}`,
  input: (t) => ({
    installationId: t.globalID({ for: InstallationRef, required: true, description: 'The installation.' }),
    siteId: t.globalID({ for: SiteRef, required: true, description: 'A site it was given.' }),
  }),
  payload: { deletedSiteInstallationId: { type: 'ID', description: 'The global ID the site installation had.' } },
  gone: ({ installationId, siteId }) => ({ deletedSiteInstallationId: encodeGlobalID('IntegrationSiteInstallation', `${installationId.id}/${siteId.id}`) }),
  resolve: async ({ installationId, siteId }, ctx) => {
    const found = await getInstallationById(ctx, installationId.id);
    await uninstallIntegrationFromSite(ctx, found, siteId.id);
    return { deletedSiteInstallationId: encodeGlobalID('IntegrationSiteInstallation', `${found.installation.id}/${siteId.id}`) };
  },
});

defineMutation('integrationSpaceInstallationUpdate', {
  inputDescription: 'Input of integrationSpaceInstallationUpdate. Absent fields stay as they are.',
  description: `Changes what an installation keeps for one of its spaces; the integration gets a \`space_installation_setup\` event. ${ADMINS}`,
  input: (t) => ({
    installationId: t.globalID({ for: InstallationRef, required: true, description: 'The installation.' }),
    spaceId: t.globalID({ for: SpaceRef, required: true, description: 'A space it was given.' }),
    ...contentUpdateInput(t),
  }),
  payload: { spaceInstallation: { type: SpaceInstallationRef, description: 'The space installation after the change.' } },
  resolve: async ({ installationId, spaceId, configuration, externalIds }, ctx) => ({
    spaceInstallation: await updateSpaceInstallation(ctx, await getInstallationById(ctx, installationId.id), spaceId.id, defined(configuration, externalIds)),
  }),
});

defineMutation('integrationInstallationTokenCreate', {
  description:
    "Issues a token for an installation, valid for an hour, that acts with the integration's scopes on what the installation was given, " +
    "as `POST .../installations/{id}/tokens` does. For the integration itself (its own token) and the admins of the organization that publishes it.",
  input: (t) => ({ installationId: t.globalID({ for: InstallationRef, required: true, description: 'The installation.' }) }),
  payload: { token: { type: 'String', description: 'The new token. It is shown once.' } },
  resolve: async ({ installationId }, ctx) => ({ token: (await createInstallationToken(ctx, await getInstallationById(ctx, installationId.id))).token }),
});
