import { ValidationError } from '../domain/errors';
import { findUnsafeString, isUnsafeString, unsafeStringMessage } from '../lib/input-hygiene';

/** A JSON body as read by `readJson`: `unsafe` says whether a string in it may be unsafe. */
export interface ReadBody {
  value: unknown;
  unsafe: boolean;
}

/**
 * Refuses a REST request whose path ids, query string or JSON body carry an unsafe string. The body
 * is walked only when reading it saw a string that may be unsafe, and then only to name the field.
 */
export function refuseUnsafeInput(params: Record<string, string>, query: URLSearchParams, body: ReadBody): void {
  for (const [name, value] of Object.entries(params)) {
    if (isUnsafeString(value)) throw new ValidationError(unsafeStringMessage(`Path parameter ${name}`), [name]);
  }
  for (const [name, value] of query) {
    if (isUnsafeString(name) || isUnsafeString(value)) throw new ValidationError(unsafeStringMessage(`Query parameter ${JSON.stringify(name)}`));
  }
  const field = body.unsafe ? findUnsafeString(body.value) : null;
  if (field) throw new ValidationError(unsafeStringMessage(field.length ? `Body field ${field.join('.')}` : 'The body'), field);
}
