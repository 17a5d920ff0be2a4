import { sql, type SQL } from 'drizzle-orm';
import type { Action, ActionResources, Authorizer, ListedKind } from '../context/actions';
import type { RequestContext } from '../context/request-context';
import { ForbiddenError, NotFoundError } from '../domain/errors';
import { policies, type Policy } from '../access-control/policies';
import { listFilter } from '../access-control/visibility';
import { grantAllows, grantListFilter } from '../access-control/integration-grants';
import { siteGrantAllows } from '../access-control/site-grants';

/**
 * Per-request authorization: one answer per (action, resource), computed once. Every service asks
 * here, for single objects (`can`, `assert`, `assertVisible`) and for lists (`listFilter`), so the
 * same rules answer REST and GraphQL alike.
 */
export class Authz implements Authorizer {
  private memo = new Map<Action, WeakMap<object, Promise<boolean>>>();

  constructor(private readonly ctx: RequestContext) {}

  private answers(action: Action): WeakMap<object, Promise<boolean>> {
    let byResource = this.memo.get(action);
    if (!byResource) this.memo.set(action, (byResource = new WeakMap()));
    return byResource;
  }

  can<A extends Action>(action: A, resource: ActionResources[A]): Promise<boolean> {
    if (!this.ctx.viewer) return Promise.resolve(false);
    const byResource = this.answers(action);
    const key = resource as object;
    let answer = byResource.get(key);
    if (!answer) {
      const { grant, site } = this.ctx.viewer;
      const policy = policies[action] as Policy<A>;
      answer = Promise.resolve(site ? siteGrantAllows(site, action, resource) : grant ? grantAllows(this.ctx, grant, action, resource) : policy(this.ctx, resource));
      byResource.set(key, answer);
    }
    return answer;
  }

  async allowed<A extends Action>(action: A, resources: readonly ActionResources[A][]): Promise<ActionResources[A][]> {
    const answers = await Promise.all(resources.map((r) => this.can(action, r)));
    return resources.filter((_, i) => answers[i]);
  }

  async assert<A extends Action>(action: A, resource: ActionResources[A], message?: string): Promise<void> {
    if (!(await this.can(action, resource))) throw new ForbiddenError(message);
  }

  async assertVisible<A extends Action>(action: A, resource: ActionResources[A], what: string): Promise<void> {
    if (!(await this.can(action, resource))) throw new NotFoundError(what);
  }

  listFilter(kind: ListedKind, organizationIds: readonly string[]): Promise<SQL | undefined> {
    // A site's token lists nothing: it reads the spaces its site publishes one by one.
    if (this.ctx.viewer?.site) return Promise.resolve(sql`false`);
    const grant = this.ctx.viewer?.grant;
    if (grant) return Promise.resolve(grantListFilter(grant, kind));
    return listFilter(this.ctx, kind, organizationIds);
  }

  remember<A extends Action>(action: A, resource: ActionResources[A], answer: boolean): void {
    this.answers(action).set(resource as object, Promise.resolve(answer));
  }

  forget(): void {
    this.memo.clear();
  }
}
