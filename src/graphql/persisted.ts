import { readFileSync } from 'node:fs';
import { specifiedRules, validate, type GraphQLError, type GraphQLSchema } from 'graphql';
import type { GraphQLParams, Plugin } from 'graphql-yoga';
import { usePersistedOperations } from '@graphql-yoga/plugin-persisted-operations';
import { parseWithLimit, queryShapeRule } from './cost';

/**
 * Operations an app registered ahead of time, by id: the `{ "<id>": "<query text>" }` file that
 * `relay-compiler` writes with a local `persistConfig`. The app then sends the id, not the text.
 */
export interface PersistedOperations {
  /** Where they were read from, for messages. */
  readonly file: string;
  /** Text of each operation, by id. */
  readonly texts: ReadonlyMap<string, string>;
  /** Only these run: a request with query text is refused. */
  readonly only: boolean;
}

/**
 * Where clients put the id. Relay's documented network layer sends `doc_id`; `documentId` is the
 * GraphQL-over-HTTP persisted documents proposal's; `id` is what some Relay apps send as
 * `params.id`. The three are body fields (or GET parameters) beside `variables`.
 */
export const PERSISTED_ID_FIELDS = ['doc_id', 'documentId', 'id'] as const;

/**
 * The id a request names, or null. Apollo-style `extensions.persistedQuery.sha256Hash` is read
 * too, for lists hashed with SHA-256 (relay-compiler's `"algorithm": "SHA256"`).
 */
export function persistedOperationId(params: GraphQLParams): string | null {
  const fields = params as Record<string, unknown>;
  for (const field of PERSISTED_ID_FIELDS) {
    if (typeof fields[field] === 'string' && fields[field] !== '') return fields[field];
  }
  const persisted = (params.extensions as { persistedQuery?: { version?: unknown; sha256Hash?: unknown } } | undefined)?.persistedQuery;
  if (persisted?.version === 1 && typeof persisted.sha256Hash === 'string') return persisted.sha256Hash;
  return null;
}

/** A persisted operations file that cannot be used; its message is one line naming the file. */
export class PersistedOperationsError extends Error {}

/** The first problem of one document, with where it is in the text. */
function describe(error: GraphQLError): string {
  const at = error.locations?.[0];
  return at ? `${error.message} (line ${at.line}, column ${at.column})` : error.message;
}

/**
 * Reads and checks the file: each text is parsed with the request limits and validated against
 * the schema, so a list compiled against another version of the schema stops the start instead
 * of failing each request later. The cost is not checked here: it depends on the variables, and
 * is checked on every request as for any other document.
 */
export function loadPersistedOperations(file: string, schema: GraphQLSchema, only: boolean): PersistedOperations {
  const fail = (problem: string): never => {
    throw new PersistedOperationsError(`QUIRE_PERSISTED_OPERATIONS (${file}): ${problem}`);
  };
  let raw: string;
  try {
    raw = readFileSync(file, 'utf8');
  } catch (error) {
    return fail(`cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch (error) {
    return fail(`is not JSON: ${(error as Error).message}`);
  }
  if (json === null || typeof json !== 'object' || Array.isArray(json)) {
    return fail('must be a JSON object of { "<id>": "<query text>" }, as relay-compiler --persist writes it');
  }
  const rules = [...specifiedRules, queryShapeRule];
  const texts = new Map<string, string>();
  for (const [id, text] of Object.entries(json)) {
    if (typeof text !== 'string') return fail(`the value of "${id}" must be the operation's text, got ${text === null ? 'null' : typeof text}`);
    let errors: readonly GraphQLError[];
    try {
      errors = validate(schema, parseWithLimit(text), rules);
    } catch (error) {
      errors = [error as GraphQLError];
    }
    if (errors.length > 0) return fail(`operation "${id}" does not fit the schema: ${describe(errors[0])}`);
    texts.set(id, text);
  }
  return { file, texts, only };
}

const refusal = (message: string, code: string) => ({ message, extensions: { code, http: { status: 400 } } });

/**
 * Yoga's persisted operations plugin over the loaded list. It looks the id up when the request
 * arrives and hands the text on as the request's query: parsing (with its cache), validation,
 * the cost limits, masking and every other plugin then treat it as any other document. Its
 * refusals are thrown, as Yoga's own request checks are, with HTTP 400.
 */
export function usePersistedDocuments(operations: PersistedOperations): Plugin {
  return usePersistedOperations({
    getPersistedOperation: (id) => operations.texts.get(id) ?? null,
    allowArbitraryOperations: !operations.only,
    extractPersistedOperationId: persistedOperationId,
    customErrors: {
      notFound: refusal('PersistedQueryNotFound: no persisted operation has this id.', 'PERSISTED_QUERY_NOT_FOUND'),
      persistedQueryOnly: refusal(
        'PersistedQueryOnly: this server runs only persisted operations; send the id of one (doc_id) instead of query text.',
        'PERSISTED_QUERY_ONLY',
      ),
      keyNotFound: refusal(
        operations.only ? 'Must provide a persisted operation id (doc_id).' : 'Must provide query string or a persisted operation id (doc_id).',
        'BAD_REQUEST',
      ),
    },
  });
}
