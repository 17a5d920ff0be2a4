import type { LinkInviteRow } from '../../db/schema/invites';

export function presentLinkInvite(invite: LinkInviteRow) {
  // Only admins can read invite links, and an admin already holds every role a link can carry.
  return { object: 'invite' as const, id: invite.id, role: invite.role, redundant: true };
}
