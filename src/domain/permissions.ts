import { z } from 'zod';
import { ROLES, strongestRole, weakestRole, type Role } from './roles';

/**
 * How content access is resolved, for spaces and collections alike.
 *
 * A piece of content sits at the bottom of a chain: itself, then its parent collection, up to the
 * organization. Each link may set a `defaultLevel` (a role, null for "members get nothing by
 * default", or 'inherit' to defer to the link above) and may carry explicit grants to users and to
 * teams.
 *
 * - Organization admins administer all content.
 * - Guests (members with a null role) get only explicit grants. Outsiders and disabled members get
 *   nothing, even a grant left over from when they were members.
 * - Other members get the default level of the nearest link that sets one (the organization role
 *   itself when none does), capped by their organization role, so a `read` member is never given
 *   edit rights by a generous default.
 * - Explicit grants, to the user or to any of their teams, on the content or any ancestor, are
 *   added on top without the cap: sharing a space with someone is a deliberate act.
 * - The result is the strongest of these; null means no access.
 */
export type DefaultLevel = Role | null | 'inherit';

/** A role, null for "no access by default", or 'inherit' to follow the parent collection. */
export const defaultLevelSchema = z.union([z.enum([...ROLES, 'inherit']), z.null()], {
  error: `defaultLevel must be one of ${ROLES.join(', ')}, inherit or null`,
});

export interface ContentLink {
  defaultLevel: DefaultLevel;
  /** Roles granted on this link to the user directly and through each of their teams. */
  grants: (Role | null | undefined)[];
}

export interface ContentAccessInput {
  /** The caller's organization membership; undefined when they are not a member. */
  membership?: { role: Role | null; disabled?: boolean };
  /** From the content itself up to the top-level collection. */
  chain: ContentLink[];
}

export function resolveContentRole({ membership, chain }: ContentAccessInput): Role | null {
  if (!membership || membership.disabled) return null;
  const orgRole = membership.role;
  if (orgRole === 'admin') return 'admin';
  const granted = strongestRole(...chain.flatMap((link) => link.grants));
  let byDefault: Role | null = null;
  if (orgRole) {
    const nearest = chain.find((link) => link.defaultLevel !== 'inherit');
    const level = nearest ? (nearest.defaultLevel as Role | null) : orgRole;
    byDefault = weakestRole(level, orgRole);
  }
  return strongestRole(granted, byDefault);
}
