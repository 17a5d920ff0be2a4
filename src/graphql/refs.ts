import type { MemberRow } from '../modules/members/table';
import type { OrganizationRow } from '../modules/organizations/table';
import type { TeamMemberRow, TeamRow } from '../modules/teams/table';
import type { UserRow } from '../modules/users/table';
import { builder } from './builder';

/**
 * Object types that modules reference across each other, declared before any is implemented so
 * that `Organization.members` and `OrganizationMember.organization` can point at one another.
 */
export const UserRef = builder.objectRef<UserRow>('User');
export const OrganizationRef = builder.objectRef<OrganizationRow>('Organization');
export const OrganizationMemberRef = builder.objectRef<MemberRow>('OrganizationMember');
export const TeamRef = builder.objectRef<TeamRow>('Team');
export const TeamMembershipRef = builder.objectRef<TeamMemberRow>('TeamMembership');

export const RoleEnum = builder.enumType('Role', {
  description: 'A role in an organization or on content. Each grants everything the roles below it grant.',
  values: {
    ADMIN: { value: 'admin', description: 'Administer content: create and delete spaces, manage members.' },
    CREATE: { value: 'create', description: 'Create content.' },
    REVIEW: { value: 'review', description: 'Review content.' },
    EDIT: { value: 'edit', description: 'Edit live content or change requests.' },
    COMMENT: { value: 'comment', description: 'Read content and take part in discussions.' },
    READ: { value: 'read', description: 'Read content, without changing it in any way.' },
  } as const,
});

export const TeamRoleEnum = builder.enumType('TeamRole', {
  description: 'A role within a team.',
  values: {
    OWNER: { value: 'owner', description: 'Manages the members of the team.' },
    MEMBER: { value: 'member', description: 'Belongs to the team.' },
  } as const,
});
