import { z } from 'zod';

/** Organization and content roles, weakest first: a role grants everything the ones before it grant. */
export const ROLES = ['read', 'comment', 'edit', 'review', 'create', 'admin'] as const;
export type Role = (typeof ROLES)[number];

/** What each role adds, for the API docs. */
export const ROLE_DESCRIPTIONS: Record<Role, string> = {
  admin: 'Administer content: create and delete spaces, manage members.',
  create: 'Create content.',
  review: 'Review content.',
  edit: 'Edit live content or change requests.',
  comment: 'Read content and take part in discussions.',
  read: 'Read content, without changing it in any way.',
};

export const TEAM_ROLES = ['owner', 'member'] as const;
export type TeamRole = (typeof TEAM_ROLES)[number];

export const TEAM_ROLE_DESCRIPTIONS: Record<TeamRole, string> = {
  owner: 'Manages the members of the team.',
  member: 'Belongs to the team.',
};

export const roleSchema = z.enum(ROLES, { error: `role must be one of ${ROLES.join(', ')}` });
/** A role, or null for a guest. */
export const roleOrGuestSchema = roleSchema.nullable();
export const teamRoleSchema = z.enum(TEAM_ROLES, { error: `role must be one of ${TEAM_ROLES.join(', ')}` });

export function roleRank(role: Role | null | undefined): number {
  return role ? ROLES.indexOf(role) : -1;
}

/** True when `role` grants at least what `needed` grants. Guests (null) satisfy nothing. */
export function roleAtLeast(role: Role | null | undefined, needed: Role): boolean {
  return roleRank(role) >= roleRank(needed);
}

export function strongestRole(...roles: (Role | null | undefined)[]): Role | null {
  let best: Role | null = null;
  for (const role of roles) if (roleRank(role) > roleRank(best)) best = role ?? null;
  return best;
}

export function weakestRole(a: Role | null, b: Role | null): Role | null {
  return roleRank(a) <= roleRank(b) ? a : b;
}
