import { ValidationError } from '../domain/errors';
import { findUnsafeString, isUnsafeString, unsafeStringMessage } from '../lib/input-hygiene';

/** Refuses a REST request whose path ids, query string or JSON body carry an unsafe string. */
export function refuseUnsafeInput(params: Record<string, string>, query: URLSearchParams, body: unknown): void {
  for (const [name, value] of Object.entries(params)) {
    if (isUnsafeString(value)) throw new ValidationError(unsafeStringMessage(`Path parameter ${name}`), [name]);
  }
  for (const [name, value] of query) {
    if (isUnsafeString(name) || isUnsafeString(value)) throw new ValidationError(unsafeStringMessage(`Query parameter ${JSON.stringify(name)}`));
  }
  const field = findUnsafeString(body);
  if (field) throw new ValidationError(unsafeStringMessage(field.length ? `Body field ${field.join('.')}` : 'The body'), field);
}
