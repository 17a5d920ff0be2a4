import { encodeGlobalID } from '@pothos/plugin-relay';
import { RoleEnum } from '../../../graphql/enums';
import { defineMutation } from '../../../graphql/mutation';
import { OrganizationRef } from '../../organizations/graphql/refs';
import { TeamRef } from '../../teams/graphql/refs';
import { createSamlProvider, deleteSamlProvider, getSamlProviderById, updateSamlProvider } from '../service';
import { SamlProviderRef } from './refs';

const providerPayload = (description: string) => ({ samlProvider: { type: SamlProviderRef, description } });

/** GraphQL names its fields after the GraphQL style; the service reads the REST body's names. */
const FIELDS = { entityID: 'entityId', ssoURL: 'ssoUrl', defaultTeam: 'defaultTeamId' };

defineMutation('samlProviderCreate', {
  description: 'Adds a SAML identity provider to an organization. Organization admins only; the certificate must be an X.509 PEM and the default team a team of the organization.',
  input: (t) => ({
    organizationId: t.globalID({ for: OrganizationRef, required: true, description: 'The organization people will sign in to.' }),
    label: t.string({ required: true, description: 'Name shown on the sign-in page, 1 to 30 characters.' }),
    entityId: t.string({ required: true, description: "The identity provider's entity id, at most 1024 characters." }),
    ssoUrl: t.string({ required: true, description: "The identity provider's single sign-on URL (http or https), at most 2048 characters." }),
    certificate: t.string({ required: true, description: "The identity provider's signing certificate, one X.509 certificate in PEM." }),
    defaultTeamId: t.globalID({ for: TeamRef, description: 'A team of the organization that newcomers join.' }),
    defaultRole: t.field({ type: RoleEnum, description: 'Role of newcomers; READ when absent. Send null for guests.' }),
  }),
  fields: FIELDS,
  payload: providerPayload('The new provider.'),
  resolve: async ({ organizationId, label, entityId, ssoUrl, certificate, defaultTeamId, defaultRole }, ctx) => ({
    samlProvider: await createSamlProvider(ctx, organizationId.id, {
      label,
      entityID: entityId,
      ssoURL: ssoUrl,
      certificate,
      defaultTeam: defaultTeamId?.id,
      defaultRole: defaultRole === undefined ? undefined : defaultRole,
    }),
  }),
});

defineMutation('samlProviderUpdate', {
  description: 'Changes a SAML identity provider; fields left out keep their value. Organization admins only.',
  input: (t) => ({
    samlProviderId: t.globalID({ for: SamlProviderRef, required: true, description: 'The provider to change.' }),
    label: t.string({ description: 'New name, 1 to 30 characters.' }),
    entityId: t.string({ description: "The identity provider's entity id." }),
    ssoUrl: t.string({ description: "The identity provider's single sign-on URL." }),
    certificate: t.string({ description: "The identity provider's signing certificate (X.509, PEM)." }),
    defaultTeamId: t.globalID({ for: TeamRef, description: 'A team of the organization that newcomers join; null for none.' }),
    defaultRole: t.field({ type: RoleEnum, description: 'Role of newcomers; null for guests.' }),
  }),
  fields: FIELDS,
  payload: providerPayload('The provider after the change.'),
  resolve: async ({ samlProviderId, label, entityId, ssoUrl, certificate, defaultTeamId, defaultRole }, ctx) => {
    return {
      samlProvider: await updateSamlProvider(ctx, await getSamlProviderById(ctx, samlProviderId.id), {
        label: label ?? undefined,
        entityID: entityId ?? undefined,
        ssoURL: ssoUrl ?? undefined,
        certificate: certificate ?? undefined,
        defaultTeam: defaultTeamId === undefined ? undefined : (defaultTeamId?.id ?? null),
        defaultRole: defaultRole === undefined ? undefined : defaultRole,
      }),
    };
  },
});

defineMutation('samlProviderDelete', {
  description: 'Removes a SAML identity provider; its members stay in the organization. Organization admins only.',
  input: (t) => ({ samlProviderId: t.globalID({ for: SamlProviderRef, required: true, description: 'The provider to remove.' }) }),
  payload: { deletedSamlProviderId: { type: 'ID', description: 'Global ID of the provider that no longer exists.' } },
  gone: ({ samlProviderId }) => ({ deletedSamlProviderId: encodeGlobalID('SamlProvider', samlProviderId.id) }),
  resolve: async ({ samlProviderId }, ctx) => {
    const provider = await getSamlProviderById(ctx, samlProviderId.id);
    await deleteSamlProvider(ctx, provider.organizationId, provider.id);
    return { deletedSamlProviderId: encodeGlobalID('SamlProvider', provider.id) };
  },
});
