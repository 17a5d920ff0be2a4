import type { z } from 'zod';
import { ValidationError } from './errors';

/** Runs a zod schema; the first issue becomes a ValidationError naming the field. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown, prefix: string[] = []): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const path = [...prefix, ...issue.path.map(String)];
  const where = path.length ? `${path.join('.')}: ` : '';
  const message = issue.message.startsWith(path[path.length - 1] ?? '\u0000') ? issue.message : `${where}${issue.message}`;
  throw new ValidationError(message, path.length ? path : undefined);
}

/** Error option for a request body object: names the wrong type, keeps zod's message for the rest. */
export const bodyObject = {
  error: (issue: { code: string }) => (issue.code === 'invalid_type' ? 'body must be a JSON object' : undefined),
};
