import type { RequestContext } from '../../context/request-context';
import { userEmail } from './service';
import type { UserRow } from '../../db/schema/users';

/** `email` is left out when the viewer may not read it (the platform's User has it optional). */
export async function presentUser(ctx: RequestContext, user: UserRow) {
  const email = await userEmail(ctx, user);
  return {
    object: 'user' as const,
    id: user.id,
    displayName: user.displayName,
    ...(email !== null ? { email } : {}),
    ...(user.photoUrl ? { photoURL: user.photoUrl } : {}),
    urls: { location: `${ctx.config.publicUrl}/v1/users/${user.id}` },
  };
}
