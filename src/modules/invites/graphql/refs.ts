import { builder } from '../../../graphql/builder';
import { RoleEnum } from '../../../graphql/enums';
import type { LinkInviteRow } from '../../../db/schema/invites';

export const LinkInvite = builder.objectRef<LinkInviteRow>('OrganizationLinkInvite').implement({
  description: 'An invite link: whoever holds it may join the organization with its role.',
  fields: (t) => ({
    restId: t.exposeString('id', { description: 'The id of the invite in the REST API; also the secret part of the link.' }),
    role: t.field({ type: RoleEnum, nullable: true, description: 'Role given to people who join; null makes them guests.', resolve: (i) => i.role }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When the link was created.' }),
  }),
});
