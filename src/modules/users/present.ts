import type { RequestContext } from '../../context/request-context';
import type { UserRow } from './table';

export function presentUser(ctx: RequestContext, user: UserRow) {
  return {
    object: 'user' as const,
    id: user.id,
    displayName: user.displayName,
    email: user.email,
    ...(user.photoUrl ? { photoURL: user.photoUrl } : {}),
    urls: { location: `${ctx.config.publicUrl}/v1/users/${user.id}` },
  };
}
