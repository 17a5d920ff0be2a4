import { z } from 'zod';
import { ValidationError } from './errors';

type Issue = z.core.$ZodIssue & { input?: unknown };

/**
 * The issue worth telling: inside a union (a string or an object, say), the branch that got past
 * the type check says what is actually wrong, rather than zod's bare "Invalid input".
 */
function telling(issue: Issue): { issue: Issue; path: PropertyKey[] } {
  if (issue.code === 'invalid_union' && issue.errors.length) {
    const branches = issue.errors.flat() as Issue[];
    const inner = branches.find((i) => i.code !== 'invalid_type') ?? branches[0];
    if (inner) {
      const deeper = telling(inner);
      return { issue: deeper.issue, path: [...issue.path, ...deeper.path] };
    }
  }
  return { issue, path: issue.path };
}

function messageOf(issue: Issue, field: string | undefined): string {
  // A missing field is "required", whatever the schema says of a value of the wrong type.
  if (issue.code === 'invalid_type' && issue.input === undefined && field) return `${field} is required`;
  // A malformed e-mail or URL names the value, so that one bad entry in a list can be found.
  if (issue.code === 'invalid_format' && typeof issue.input === 'string') return `${issue.message}: "${issue.input}"`;
  return issue.message;
}

/** Runs a zod schema; the first issue becomes a ValidationError naming the field. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown, prefix: string[] = []): z.output<S> {
  const result = schema.safeParse(input, { reportInput: true });
  if (result.success) return result.data;
  const { issue, path: issuePath } = telling(result.error.issues[0] as Issue);
  const path = [...prefix, ...issuePath.map(String)];
  const field = [...path].reverse().find((p) => !/^\d+$/.test(p));
  const text = messageOf(issue, field);
  const where = path.length ? `${path.join('.')}: ` : '';
  const message = text.startsWith(path[path.length - 1] ?? '\u0000') || text.startsWith(field ?? '\u0000') ? text : `${where}${text}`;
  throw new ValidationError(message, path.length ? path : undefined);
}

/** Error option for a request body object: names the wrong type, keeps zod's message for the rest. */
export const bodyObject = {
  error: (issue: { code: string }) => (issue.code === 'invalid_type' ? 'body must be a JSON object' : undefined),
};

/** One of a fixed set of strings, with a message that names the field and, when it is wrong, the choices. */
export const oneOf = <T extends readonly [string, ...string[]]>(values: T, noun: string) =>
  z.enum(values, { error: (issue) => (issue.input === undefined ? `${noun} is required` : `${noun} must be one of ${values.join(', ')}`) });
