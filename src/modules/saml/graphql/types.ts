import type { PageArgs } from '../../../domain/page';
import { builder } from '../../../graphql/builder';
import { RoleEnum } from '../../../graphql/enums';
import { orNull } from '../../../graphql/errors';
import { batchedConnection, GRAPHQL_MAX, totalCountField } from '../../../graphql/relay';
import { OrganizationRef } from '../../organizations/graphql/refs';
import { getOrganization } from '../../organizations/service';
import { TeamRef } from '../../teams/graphql/refs';
import type { SamlProviderRow } from '../../../db/schema/saml';
import { getSamlProviderById, listSamlProvidersOfOrganizations, listSsoLogins, samlProviderDefaultTeam, samlServiceUrls } from '../service';
import { SamlProviderRef } from './refs';

builder.node(SamlProviderRef, {
  description: "A SAML 2.0 identity provider the organization's people sign in through. Organization admins only.",
  id: { resolve: (p) => p.id },
  loadOne: (id, ctx) => orNull(getSamlProviderById(ctx, id)),
  fields: (t) => ({
    restId: t.exposeString('id', { description: 'The id of this provider in the REST API (`/v1/orgs/{organizationId}/saml/{samlProviderId}`).' }),
    label: t.exposeString('label', { description: 'Name shown on the sign-in page, 1 to 30 characters.' }),
    entityId: t.exposeString('entityId', { description: "The identity provider's entity id: the Issuer of its responses." }),
    ssoUrl: t.exposeString('ssoUrl', { description: "The identity provider's single sign-on URL, where AuthnRequests go." }),
    certificate: t.exposeString('certificate', { description: "The identity provider's signing certificate (X.509, PEM)." }),
    defaultRole: t.field({
      type: RoleEnum,
      nullable: true,
      description: 'Role of people who join the organization by signing in here; null makes them guests.',
      resolve: (p) => p.defaultRole,
    }),
    defaultTeam: t.field({
      type: TeamRef,
      nullable: true,
      description: 'Team that people who join by signing in here are added to.',
      resolve: (p, _, ctx) => samlProviderDefaultTeam(ctx, p),
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When the provider was added.' }),
    organization: t.field({ type: OrganizationRef, description: 'The organization people sign in to.', resolve: (p, _, ctx) => getOrganization(ctx, p.organizationId) }),
    serviceEntityId: t.string({ description: 'Our entity id for this provider: the audience the identity provider must name.', resolve: (p, _, ctx) => samlServiceUrls(ctx, p).entityID }),
    acsUrl: t.string({ description: 'Our assertion consumer service URL (HTTP-POST binding), to configure in the identity provider.', resolve: (p, _, ctx) => samlServiceUrls(ctx, p).acsURL }),
    startUrl: t.string({ description: 'The URL a browser opens to sign in through this provider.', resolve: (p, _, ctx) => samlServiceUrls(ctx, p).startURL }),
  }),
});

const SsoLoginRef = builder.objectRef<SamlProviderRow>('OrganizationSsoLogin').implement({
  description: 'A way to sign in to an organization through its identity provider, for a login page. It names no secret.',
  fields: (t) => ({
    restId: t.exposeString('id', { description: 'The id of the SAML provider in the REST API.' }),
    label: t.exposeString('label', { description: 'Name shown on the sign-in page.' }),
    startUrl: t.string({ description: 'The URL a browser opens to sign in this way.', resolve: (p, _, ctx) => samlServiceUrls(ctx, p).startURL }),
  }),
});

builder.objectFields(OrganizationRef, (t) => ({
  ssoLogins: t.field({
    type: [SsoLoginRef],
    description: 'The ways to sign in to the organization through its identity providers, oldest first, at most 100. Every member, guests included, may read them.',
    resolve: (o, _, ctx) => listSsoLogins(ctx, o.id),
  }),
  samlProviders: t.connection(
    {
      type: SamlProviderRef,
      description: 'SAML identity providers of the organization, oldest first. Organization admins only.',
      resolve: batchedConnection('Organization.samlProviders', (ctx, orgs, args: PageArgs) => listSamlProvidersOfOrganizations(ctx, orgs, args, GRAPHQL_MAX)),
    },
    { name: 'SamlProviderConnection', description: 'A page of SAML identity providers.', fields: totalCountField },
    { name: 'SamlProviderEdge', description: 'A SAML identity provider in a page, with its cursor.' },
  ),
}));
