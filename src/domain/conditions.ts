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

/** The claims a visitor brings, as their token carried them. */
export type Claims = Record<string, unknown>;

function evaluate(node: Node, visitor: { claims: Claims }): unknown {
  switch (node.type) {
    case 'Literal':
      return (node as jsep.Literal).value;
    case 'Identifier':
      return (node as jsep.Identifier).name === 'visitor' ? visitor : undefined;
    case 'MemberExpression': {
      const m = node as jsep.MemberExpression;
      const object = evaluate(m.object, visitor);
      const key = m.computed ? evaluate(m.property, visitor) : (m.property as jsep.Identifier).name;
      // Own data properties only: a condition never reaches a prototype.
      if (object === null || typeof object !== 'object' || (typeof key !== 'string' && typeof key !== 'number')) return undefined;
      return Object.prototype.hasOwnProperty.call(object, key) ? (object as Record<string, unknown>)[key] : undefined;
    }
    case 'ArrayExpression':
      return (node as jsep.ArrayExpression).elements.map((e) => (e ? evaluate(e, visitor) : undefined));
    case 'UnaryExpression':
      return !evaluate((node as jsep.UnaryExpression).argument, visitor);
    case 'LogicalExpression':
    case 'BinaryExpression': {
      const b = node as jsep.BinaryExpression;
      if (b.operator === '&&') return evaluate(b.left, visitor) && evaluate(b.right, visitor);
      if (b.operator === '||') return evaluate(b.left, visitor) || evaluate(b.right, visitor);
      const [l, r] = [evaluate(b.left, visitor), evaluate(b.right, visitor)];
      switch (b.operator) {
        case '==':
        case '===':
          return l === r;
        case '!=':
        case '!==':
          return l !== r;
        case '<':
          return (l as number) < (r as number);
        case '<=':
          return (l as number) <= (r as number);
        case '>':
          return (l as number) > (r as number);
        case '>=':
          return (l as number) >= (r as number);
        case 'in':
          return Array.isArray(r) && r.includes(l);
      }
      return false;
    }
    default:
      return false;
  }
}

/**
 * Whether a visitor with these claims meets a condition. Conditions are checked when written, so
 * one that no longer parses (or would not be allowed) counts as false: the content stays hidden.
 */
export function conditionHolds(expression: string | null, claims: Claims): boolean {
  if (!expression) return true;
  if (conditionError(expression) !== null) return false;
  return evaluate(jsep(expression), { claims }) === true;
}
