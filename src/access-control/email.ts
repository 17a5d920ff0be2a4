import type { RequestContext } from '../context/request-context';
import { memberByKey } from './membership';

/**
 * Whether the viewer may read a user's e-mail: their own, or that of someone in an organization
 * where the viewer is an active member (a disabled or guest membership of the user counts: an
 * admin still manages them by address). Everyone else sees name and picture only.
 */
export async function canSeeEmail(ctx: RequestContext, userId: string): Promise<boolean> {
  const viewer = ctx.viewer;
  if (!viewer) return false;
  if (viewer.user.id === userId) return true;
  const shared = [...(viewer.memberships?.values() ?? [])].filter((m) => !m.disabled).map((m) => m.organizationId);
  // One statement for every user and organization asked in the same tick.
  const rows = await Promise.all(shared.map((organizationId) => memberByKey(ctx).load({ organizationId, userId })));
  return rows.some((row) => row != null);
}
