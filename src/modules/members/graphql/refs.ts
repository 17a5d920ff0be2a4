import { builder } from '../../../graphql/builder';
import { totalCountField } from '../../../graphql/relay';
import type { MemberRow } from '../../../db/schema/members';

export const OrganizationMemberRef = builder.objectRef<MemberRow>('OrganizationMember');

/** Lists of members share one connection type: the organization's members, a discussion's commenters. */
export const OrganizationMemberConnection = builder.connectionObject(
  { type: OrganizationMemberRef, name: 'OrganizationMemberConnection', description: 'A page of organization members.', fields: totalCountField },
  { name: 'OrganizationMemberEdge', description: 'A member in a page, with its cursor.' },
);

/** A member's global ID stands for the pair (organization, user). */
export const memberNodeId = (organizationId: string, userId: string) => `${organizationId}/${userId}`;

export function splitMemberNodeId(id: string): { organizationId: string; userId: string } {
  const [organizationId, userId] = id.split('/');
  return { organizationId: organizationId ?? '', userId: userId ?? '' };
}
