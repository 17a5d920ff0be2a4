import { getNamedType, getNullableType, isCompositeType, isListType, isObjectType, type FieldNode, type GraphQLResolveInfo, type GraphQLSchema } from 'graphql';
import type { RequestContext } from '../context/request-context';
import { QueryTooComplexError } from '../domain/errors';

/** A list whose length is known only once it resolves: what each of its items costs, and the length counted before. */
export interface SizedList {
  expected: number;
  itemCost: number;
}

/** What the analysis of one operation with its sizing variables found: its cost, and its lists sized by the data. */
export interface CostPlan {
  cost: number;
  sized: ReadonlyMap<FieldNode, SizedList>;
}

/**
 * The cost of one running operation: its estimate before execution, corrected each time a list
 * sized by the data resolves (its real length in place of the guess, times what each item costs).
 * It is checked at that moment, before any field of the list's items runs, so that a query whose
 * lists turn out long stops after the statement that found them, not after building the answer.
 */
export class RunningCost {
  total: number;

  constructor(
    private readonly plan: CostPlan,
    readonly limit: number,
  ) {
    this.total = plan.cost;
  }

  /** Counts a list's real length; throws QueryTooComplexError, through the request's bounds, past the limit. */
  charge(ctx: RequestContext, node: FieldNode, length: number): void {
    const sized = this.plan.sized.get(node);
    if (!sized) return;
    this.total += (length - sized.expected) * sized.itemCost;
    if (this.total > this.limit) ctx.bounds.stop(new QueryTooComplexError(this.total, this.limit));
  }
}

/** Running costs by request context: set when an operation starts executing (see useQueryLimits). */
const running = new WeakMap<object, RunningCost>();

export function startRunningCost(ctx: object, plan: CostPlan, limit: number): RunningCost {
  const cost = new RunningCost(plan, limit);
  running.set(ctx, cost);
  return cost;
}

export function runningCost(ctx: object): RunningCost | undefined {
  return running.get(ctx);
}

function charged<T>(ctx: RequestContext, info: GraphQLResolveInfo, items: T): T {
  if (Array.isArray(items)) running.get(ctx)?.charge(ctx, info.fieldNodes[0], items.length);
  return items;
}

/**
 * Wraps the resolver of every list of objects that no argument sizes, so that its real length is
 * charged as it resolves (see RunningCost). Connections and `first`/`last` lists are sized by
 * their arguments already. Done once, on the built schema, as compiled queries call these resolvers.
 */
export function chargeDataSizedLists(schema: GraphQLSchema): GraphQLSchema {
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith('__')) continue;
    for (const field of Object.values(type.getFields())) {
      const resolve = field.resolve;
      const list = getNullableType(field.type);
      if (!resolve || !isListType(list) || !isCompositeType(getNamedType(field.type))) continue;
      if (field.args.some((a) => a.name === 'first' || a.name === 'last' || isListType(getNullableType(a.type)))) continue;
      // A connection's edges hold its page: sized by `first`/`last`.
      if (field.name === 'edges' && 'pageInfo' in type.getFields()) continue;
      field.resolve = (source, args, ctx: RequestContext, info) => {
        const items = resolve(source, args, ctx, info);
        return items instanceof Promise ? items.then((resolved) => charged(ctx, info, resolved)) : charged(ctx, info, items);
      };
    }
  }
  return schema;
}

/** Fields an answer holds: every value of every object, at any depth. A walk over what is sent anyway. */
export function answerFields(value: unknown): number {
  if (Array.isArray(value)) {
    let n = 0;
    for (const item of value) n += answerFields(item);
    return n;
  }
  if (value === null || typeof value !== 'object') return 0;
  let n = 0;
  for (const key in value) n += 1 + answerFields((value as Record<string, unknown>)[key]);
  return n;
}
