import { builder } from '../../../graphql/builder';
import { RoleEnum } from '../../../graphql/enums';
import { defineMutation } from '../../../graphql/mutation';
import type { OrganizationUpdateInput } from '../input';
import { updateOrganization } from '../service';
import { OrganizationRef } from './refs';

const DefaultContentInput = builder.inputType('OrganizationDefaultContentInput', {
  description: 'The content shown by default: a site.',
  fields: (t) => ({ site: t.string({ required: true, description: 'Id of the site.' }) }),
});

defineMutation('organizationUpdate', {
  description: 'Changes the settings of an organization. Admins only.',
  input: (t) => ({
    organizationId: t.globalID({ for: OrganizationRef, required: true, description: 'The organization to change.' }),
    title: t.string({ description: 'New name, 2 to 255 characters.' }),
    emailDomains: t.stringList({ description: 'E-mail domains whose users may find and join the organization.' }),
    hostname: t.string({ description: 'Default hostname prefix for public content, 3 to 32 characters.' }),
    defaultRole: t.field({ type: RoleEnum, description: 'Role for people joining without one; pass null for guests.' }),
    defaultContent: t.field({ type: DefaultContentInput, description: 'The content shown by default; null to unset.' }),
    logo: t.string({ description: 'URL of the logo (at most 2048 characters); null to remove it.' }),
    sso: t.boolean({ description: 'Enforce single sign-on organization-wide.' }),
    ai: t.boolean({ description: 'Enable AI features.' }),
    inviteLinks: t.boolean({ description: 'Allow joining through invite links.' }),
  }),
  payload: { organization: { type: OrganizationRef, description: 'The organization after the change.' } },
  resolve: async ({ organizationId, defaultContent, ...changes }, ctx) => ({
    // Nulls go through as sent: the service's schema says which fields may be cleared.
    organization: await updateOrganization(ctx, organizationId.id, {
      ...(changes as OrganizationUpdateInput),
      ...(defaultContent !== undefined ? { defaultContent: defaultContent && { type: 'site' as const, site: defaultContent.site } } : {}),
    }),
  }),
});
