import type { DefaultLevel } from '../domain/permissions';
import type { Role } from '../domain/roles';
import type { CollectionRow } from '../modules/collections/table';
import type { MemberRow } from '../modules/members/table';
import type { OrganizationRow } from '../modules/organizations/table';
import type { SpaceRow } from '../modules/spaces/table';
import type { TeamMemberRow, TeamRow } from '../modules/teams/table';
import type { UserRow } from '../modules/users/table';
import { builder } from './builder';
import { runMutation } from './errors';

/**
 * Object types that modules reference across each other, declared before any is implemented so
 * that `Organization.members` and `OrganizationMember.organization` can point at one another.
 */
export const UserRef = builder.objectRef<UserRow>('User');
export const OrganizationRef = builder.objectRef<OrganizationRow>('Organization');
export const OrganizationMemberRef = builder.objectRef<MemberRow>('OrganizationMember');
export const TeamRef = builder.objectRef<TeamRow>('Team');
export const TeamMembershipRef = builder.objectRef<TeamMemberRow>('TeamMembership');
export const CollectionRef = builder.objectRef<CollectionRow>('Collection');
export const SpaceRef = builder.objectRef<SpaceRow>('Space');

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

/**
 * `DefaultLevel` as GraphQL sees it. The database says "nothing by default" with null, which an
 * enum cannot carry as an output value, so it is the `NONE` value here; see the converters below.
 */
export const ContentDefaultLevelEnum = builder.enumType('ContentDefaultLevel', {
  description:
    'The access organization members get to a space or collection without being granted any. A role is capped by the ' +
    "member's organization role (a `READ` member never gets more than `READ` this way); guests get nothing by default; " +
    'admins always administer everything; grants to users and teams add to it.',
  values: {
    ADMIN: { value: 'admin', description: 'Members administer it, up to their organization role.' },
    CREATE: { value: 'create', description: 'Members may create content in it, up to their organization role.' },
    REVIEW: { value: 'review', description: 'Members may review it, up to their organization role.' },
    EDIT: { value: 'edit', description: 'Members may edit it, up to their organization role.' },
    COMMENT: { value: 'comment', description: 'Members may read and comment, up to their organization role.' },
    READ: { value: 'read', description: 'Members may read it.' },
    INHERIT: {
      value: 'inherit',
      description: "Follow the enclosing collection's level, up to the top; at the top level, members get their organization role.",
    },
    NONE: { value: 'none', description: 'Members get nothing by default: only people and teams granted access see it.' },
  } as const,
});

export type ContentDefaultLevel = Role | 'inherit' | 'none';

export const toContentDefaultLevel = (level: DefaultLevel): ContentDefaultLevel => level ?? 'none';
export const fromContentDefaultLevel = (level: ContentDefaultLevel): DefaultLevel => (level === 'none' ? null : level);

/** Spaces and collections share one order under a parent, so a position may point at either. */
export const ContentPositionInput = builder.inputType('ContentPositionInput', {
  description:
    'Where to put a space or collection among the spaces and collections of its parent, which share one order. Give ' +
    '`afterId`, `beforeId`, or both when they are neighbours; with neither it goes last.',
  fields: (t) => ({
    beforeId: t.globalID({ for: [SpaceRef, CollectionRef], description: 'Put it right before this space or collection, a child of the same parent.' }),
    afterId: t.globalID({ for: [SpaceRef, CollectionRef], description: 'Put it right after this space or collection, a child of the same parent.' }),
  }),
});

type DecodedID = { typename: string; id: string };

/** A ContentPositionInput as the `position` of a REST move body. */
export function contentPosition(position: { beforeId?: DecodedID | null; afterId?: DecodedID | null } | null | undefined) {
  if (!position) return undefined;
  const pointer = (g: DecodedID) => (g.typename === 'Space' ? { type: 'space', space: g.id } : { type: 'collection', collection: g.id });
  return {
    ...(position.beforeId ? { before: pointer(position.beforeId) } : {}),
    ...(position.afterId ? { after: pointer(position.afterId) } : {}),
  };
}

/** Content services name input fields as the REST bodies do; these are their GraphQL input names. */
const CONTENT_INPUT_FIELDS: Record<string, string> = { parent: 'parentId', organization: 'organizationId', before: 'beforeId', after: 'afterId' };

/** `runMutation` for content mutations, with `userErrors[].field` renamed to the GraphQL input fields. */
export async function runContentMutation<T extends object>(fn: () => Promise<T>) {
  const result = await runMutation(fn);
  for (const error of result.userErrors) if (error.field) error.field = error.field.map((f) => CONTENT_INPUT_FIELDS[f] ?? f);
  return result;
}
