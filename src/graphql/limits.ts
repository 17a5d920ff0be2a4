import {
  GraphQLError,
  Kind,
  type ASTVisitor,
  type FragmentDefinitionNode,
  type SelectionSetNode,
  type ValidationContext,
  type ValueNode,
} from 'graphql';
import { DEFAULT_PAGE_SIZE, MAX_GRAPHQL_PAGE_SIZE } from '../domain/page';

/**
 * Bounds on what one document may ask for, checked before anything runs, so no single request
 * can fan out into millions of rows on the shared database. Like GitHub's public API, the budget
 * counts the nodes a query could return: each connection multiplies its parent's count by its
 * page size (`first`/`last`, the default page size when absent, the maximum when a variable).
 */
export const MAX_DEPTH = 20;
export const MAX_NODES = 500_000;

const pageSize = (args: readonly { name: { value: string }; value: ValueNode }[] | undefined): number | null => {
  const arg = args?.find((a) => a.name.value === 'first' || a.name.value === 'last');
  if (!arg) return null;
  if (arg.value.kind === Kind.INT) return Number(arg.value.value);
  return MAX_GRAPHQL_PAGE_SIZE;
};

export function queryLimitsRule(context: ValidationContext): ASTVisitor {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const def of context.getDocument().definitions) if (def.kind === Kind.FRAGMENT_DEFINITION) fragments.set(def.name.value, def);

  // Returns [deepest level, nodes] of a selection set reached `multiplier` times.
  const walk = (set: SelectionSetNode, multiplier: number, depth: number, seen: Set<string>): [number, number] => {
    let deepest = depth;
    let nodes = 0;
    for (const sel of set.selections) {
      let child: SelectionSetNode | undefined;
      let childMultiplier = multiplier;
      let childDepth = depth;
      if (sel.kind === Kind.FIELD) {
        if (!sel.selectionSet) continue;
        childDepth = depth + 1;
        const isConnection = sel.selectionSet.selections.some((s) => s.kind === Kind.FIELD && (s.name.value === 'edges' || s.name.value === 'pageInfo'));
        if (isConnection) {
          childMultiplier = multiplier * (pageSize(sel.arguments) ?? DEFAULT_PAGE_SIZE);
          nodes += childMultiplier;
        }
        child = sel.selectionSet;
      } else if (sel.kind === Kind.INLINE_FRAGMENT) {
        child = sel.selectionSet;
      } else {
        const name = sel.name.value;
        if (seen.has(name)) continue; // fragment cycles are reported by graphql's own rules
        child = fragments.get(name)?.selectionSet;
        seen = new Set(seen).add(name);
      }
      if (!child) continue;
      const [d, n] = walk(child, childMultiplier, childDepth, seen);
      deepest = Math.max(deepest, d);
      nodes += n;
    }
    return [deepest, nodes];
  };

  return {
    OperationDefinition(node) {
      const [depth, nodes] = walk(node.selectionSet, 1, 0, new Set());
      if (depth > MAX_DEPTH) {
        context.reportError(new GraphQLError(`Query is nested ${depth} levels deep; the limit is ${MAX_DEPTH}.`, { nodes: [node], extensions: { code: 'QUERY_TOO_COMPLEX' } }));
      }
      if (nodes > MAX_NODES) {
        context.reportError(
          new GraphQLError(`Query could return up to ${nodes} nodes; the limit is ${MAX_NODES}. Ask for smaller pages (first/last).`, {
            nodes: [node],
            extensions: { code: 'QUERY_TOO_COMPLEX' },
          }),
        );
      }
    },
  };
}
