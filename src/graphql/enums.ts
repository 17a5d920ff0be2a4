import type { DefaultLevel } from '../domain/permissions';
import { ROLE_DESCRIPTIONS, ROLES, TEAM_ROLE_DESCRIPTIONS, TEAM_ROLES, type Role, type TeamRole } from '../domain/roles';
import { builder } from './builder';

type Constant<K extends string> = K extends `${infer A}-${infer B}` ? `${Uppercase<A>}_${Constant<B>}` : Uppercase<K>;
type EnumValues<V extends string> = { [K in V as Constant<K>]: { value: K; description: string } };

/** GraphQL enum values for a list of domain values: `edit` becomes `EDIT`, `deleted-modified` `DELETED_MODIFIED`. */
export function enumValues<V extends string>(values: readonly V[], describe: (value: V) => string): EnumValues<V> {
  return Object.fromEntries(values.map((v) => [v.toUpperCase().replaceAll('-', '_'), { value: v, description: describe(v) }])) as EnumValues<V>;
}

/** The roles, strongest first as people read them. */
const rolesStrongestFirst = [...ROLES].reverse() as Role[];

export const RoleEnum = builder.enumType('Role', {
  description: 'A role in an organization or on content. Each grants everything the roles below it grant.',
  values: enumValues(rolesStrongestFirst, (r) => ROLE_DESCRIPTIONS[r]),
});

export const TeamRoleEnum = builder.enumType('TeamRole', {
  description: 'A role within a team.',
  values: enumValues<TeamRole>(TEAM_ROLES, (r) => TEAM_ROLE_DESCRIPTIONS[r]),
});

export const MemberRoleFilter = builder.enumType('MemberRoleFilter', {
  description: 'Filter for a member list: a role, or guests.',
  values: {
    ...enumValues(rolesStrongestFirst, (r) => (r === 'admin' ? 'Admins.' : `Members with the ${r} role.`)),
    GUEST: { value: 'guest' as const, description: 'Guests: members without a role.' },
  },
});

const DEFAULT_LEVEL_DESCRIPTIONS: Record<Role, string> = {
  admin: 'Members administer it, up to their organization role.',
  create: 'Members may create content in it, up to their organization role.',
  review: 'Members may review it, up to their organization role.',
  edit: 'Members may edit it, up to their organization role.',
  comment: 'Members may read and comment, up to their organization role.',
  read: 'Members may read it.',
};

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
    ...enumValues(rolesStrongestFirst, (r) => DEFAULT_LEVEL_DESCRIPTIONS[r]),
    INHERIT: {
      value: 'inherit' as const,
      description: "Follow the enclosing collection's level, up to the top; at the top level, members get their organization role.",
    },
    NONE: { value: 'none' as const, description: 'Members get nothing by default: only people and teams granted access see it.' },
  },
});

export type ContentDefaultLevel = Role | 'inherit' | 'none';

export const toContentDefaultLevel = (level: DefaultLevel): ContentDefaultLevel => level ?? 'none';
export const fromContentDefaultLevel = (level: ContentDefaultLevel): DefaultLevel => (level === 'none' ? null : level);

export const SortOrder = builder.enumType('SortOrder', {
  description: 'Sort direction.',
  values: {
    ASC: { value: 'asc' as const, description: 'Oldest or smallest first.' },
    DESC: { value: 'desc' as const, description: 'Newest or largest first.' },
  },
});
