import jsep from 'jsep';
import { z } from 'zod';

type Node = jsep.Expression;

/** What a condition may contain: claims, literals, comparisons and boolean logic; no calls, no assignment. */
const ALLOWED = new Set(['Identifier', 'MemberExpression', 'Literal', 'BinaryExpression', 'UnaryExpression', 'LogicalExpression', 'ArrayExpression']);
const OPERATORS = new Set(['==', '!=', '===', '!==', '<', '<=', '>', '>=', '&&', '||', '!', 'in']);

function check(node: Node): string | null {
  if (!ALLOWED.has(node.type)) return `${node.type === 'CallExpression' ? 'function calls are' : `${node.type} is`} not allowed in a condition`;
  if ('operator' in node && typeof node.operator === 'string' && !OPERATORS.has(node.operator)) return `the operator "${node.operator}" is not allowed in a condition`;
  if (node.type === 'Identifier' && node.name !== 'visitor') return `unknown name "${node.name}": conditions read visitor.claims`;
  // In `a.b`, only `a` is a name to check; `a[b]` checks both.
  const children = node.type === 'MemberExpression' && !node.computed ? [node.object] : Object.values(node);
  for (const child of children) {
    const kids = Array.isArray(child) ? child : [child];
    for (const kid of kids) {
      if (kid && typeof kid === 'object' && 'type' in kid) {
        const problem = check(kid as Node);
        if (problem) return problem;
      }
    }
  }
  return null;
}

/** The syntax error of a condition, pointing at where it is; null when it reads well. Parsed, never run. */
export function conditionError(expression: string): string | null {
  let tree: Node;
  try {
    tree = jsep(expression);
  } catch (error) {
    const e = error as Error & { index?: number };
    return `${e.message.replace(/ at character \d+$/, '')} at character ${e.index ?? 0}`;
  }
  return check(tree);
}

/** A visitor condition: 1 to 1,024 characters of a boolean expression over `visitor.claims`. */
export const conditionSchema = z
  .string({ error: 'condition must be a string or null' })
  .min(1, 'condition must be 1 to 1024 characters')
  .max(1024, 'condition must be 1 to 1024 characters')
  .superRefine((value, ctx) => {
    const problem = conditionError(value);
    if (problem) ctx.addIssue({ code: 'custom', message: `condition: ${problem}` });
  });
