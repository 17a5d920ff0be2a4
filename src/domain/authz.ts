import type { RequestContext } from '../app/context';
import { ForbiddenError, NotFoundError, UnauthenticatedError } from './errors';

/**
 * Every action a caller can attempt, with the resource it applies to. Each module's policy.ts adds
 * its own actions by augmenting this interface and registering a predicate with `definePolicies`.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-interface
export interface ActionResources {}
export type Action = keyof ActionResources;

type Predicate<A extends Action> = (ctx: RequestContext, resource: ActionResources[A]) => boolean | Promise<boolean>;

const policies = new Map<Action, Predicate<Action>>();

export function definePolicies(map: { [A in Action]?: Predicate<A> }): void {
  for (const [action, predicate] of Object.entries(map)) policies.set(action as Action, predicate as Predicate<Action>);
}

/** Per-request authorization: one answer per (action, resource), computed once. */
export class Authz {
  private memo = new Map<string, WeakMap<object, Promise<boolean>>>();

  constructor(private ctx: RequestContext) {}

  can<A extends Action>(action: A, resource: ActionResources[A]): Promise<boolean> {
    const predicate = policies.get(action);
    if (!predicate) throw new Error(`No policy registered for ${action}`);
    if (!this.ctx.viewer) return Promise.resolve(false);
    let byResource = this.memo.get(action);
    if (!byResource) this.memo.set(action, (byResource = new WeakMap()));
    const key = resource as object;
    let answer = byResource.get(key);
    if (!answer) {
      answer = Promise.resolve(predicate(this.ctx, resource));
      byResource.set(key, answer);
    }
    return answer;
  }

  /** The resources, among these, on which the action is allowed; in their order. */
  async allowed<A extends Action>(action: A, resources: readonly ActionResources[A][]): Promise<ActionResources[A][]> {
    const answers = await Promise.all(resources.map((r) => this.can(action, r)));
    return resources.filter((_, i) => answers[i]);
  }

  /** Drops every remembered answer: call after a write that changes memberships. */
  forget(): void {
    this.memo.clear();
  }

  /** Throws Forbidden when the action is refused. */
  async assert<A extends Action>(action: A, resource: ActionResources[A], message?: string): Promise<void> {
    if (!(await this.can(action, resource))) throw new ForbiddenError(message);
  }

  /** Throws NotFound when refused: for reads, where refusing must not reveal that the object exists. */
  async assertVisible<A extends Action>(action: A, resource: ActionResources[A], what: string): Promise<void> {
    if (!(await this.can(action, resource))) throw new NotFoundError(what);
  }
}

export function requireViewer(ctx: RequestContext) {
  if (!ctx.viewer) throw new UnauthenticatedError();
  return ctx.viewer;
}
