import { builder } from '../../../graphql/builder';
import type { SamlProviderRow } from '../../../db/schema/saml';
import { OrganizationRef } from '../../organizations/graphql/refs';
import { listSsoLogins, samlServiceUrls } from '../service';

/* The sign-in choices of an organization, as REST's /orgs/{id}/sso lists them: what a member needs, not a provider's settings. */

const SsoLoginRef = builder.objectRef<SamlProviderRow>('SsoLogin').implement({
  description: 'A way to sign in to the organization with single sign-on.',
  fields: (t) => ({
    restId: t.exposeString('id', { description: 'The id of its SAML provider in the REST API.' }),
    label: t.exposeString('label', { description: 'Name shown on the sign-in button.' }),
    startUrl: t.string({ description: 'Where a browser starts signing in.', resolve: (p, _, ctx) => samlServiceUrls(ctx, p).startURL }),
  }),
});

builder.objectFields(OrganizationRef, (t) => ({
  ssoLogins: t.field({
    type: [SsoLoginRef],
    description: 'Its single sign-on choices, oldest first (at most 100). Any member may list them.',
    resolve: (org, _, ctx) => listSsoLogins(ctx, org.id),
  }),
}));
