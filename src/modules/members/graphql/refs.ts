import { builder } from '../../../graphql/builder';
import type { MemberRow } from '../../../db/schema/members';

export const OrganizationMemberRef = builder.objectRef<MemberRow>('OrganizationMember');

/** A member's global ID stands for the pair (organization, user). */
export const memberNodeId = (organizationId: string, userId: string) => `${organizationId}/${userId}`;

export function splitMemberNodeId(id: string): { organizationId: string; userId: string } {
  const [organizationId, userId] = id.split('/');
  return { organizationId: organizationId ?? '', userId: userId ?? '' };
}
