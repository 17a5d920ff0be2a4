import type { RestRouter } from '../../rest/router';
import { presentUser } from './present';
import { getCurrentUser, getUser } from './service';

export function userRoutes(r: RestRouter): void {
  r.get('/v1/user', async ({ ctx }) => ({ status: 200, body: await presentUser(ctx, getCurrentUser(ctx)) }));
  r.get('/v1/users/:userId', async ({ ctx, params }) => ({ status: 200, body: await presentUser(ctx, await getUser(ctx, params.userId)) }));
}
