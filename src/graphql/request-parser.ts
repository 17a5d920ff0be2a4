import { GraphQLError, type ASTNode } from 'graphql';
import type { GraphQLParams } from 'graphql-yoga';
import { findUnsafeString, isUnsafeString, unsafeStringMessage } from '../lib/input-hygiene';
import { MAX_JSON_DEPTH, readJson, tooDeepMessage, type JsonRead } from '../lib/json-input';
import { PERSISTED_ID_FIELDS, persistedOperationId } from './persisted';

/**
 * Yoga's request parsers (GET, JSON, form and multipart POST), with every JSON text read by
 * `readJson`: nesting is bounded before anything is parsed, and variables are walked for unsafe
 * strings only when the text may hold one. This is the only place variables are looked at before
 * graphql-js coerces them. Error messages and codes are Yoga's where Yoga has one.
 */

function badRequest(message: string): GraphQLError {
  return new GraphQLError(message, { extensions: { code: 'BAD_REQUEST', http: { status: 400 } } });
}

export function badUserInput(message: string, nodes?: readonly ASTNode[]): GraphQLError {
  return new GraphQLError(message, { nodes, extensions: { code: 'BAD_USER_INPUT', http: { status: 400 } } });
}

/** Variables and extensions: at most MAX_JSON_DEPTH levels, the object itself being level 1. */
const TOO_DEEP = tooDeepMessage('The request (its variables or extensions)');

function readOrRefuse(text: string, maxDepth: number, notJson: string): JsonRead & { ok: true } {
  const read = readJson(text, maxDepth);
  if (read.ok) return read;
  throw read.problem === 'too deep' ? badUserInput(TOO_DEEP) : badRequest(notJson);
}

/** Refuses unsafe strings in the variables and the operation name; the variables only when `unsafe`. */
function refuseUnsafe(params: GraphQLParams, unsafe: boolean): GraphQLParams {
  const variable = unsafe ? findUnsafeString(params.variables ?? null) : null;
  if (variable) throw badUserInput(unsafeStringMessage(`Variable "$${variable.join('.')}"`));
  if (typeof params.operationName === 'string' && isUnsafeString(params.operationName)) throw badUserInput(unsafeStringMessage('The operation name'));
  return params;
}

/** A JSON body `{ query, variables, operationName, extensions }`: one level more than its variables. */
function envelope(text: string, notJson: string): GraphQLParams {
  const read = readOrRefuse(text, MAX_JSON_DEPTH + 1, notJson);
  if (read.value === null || typeof read.value !== 'object') {
    throw badRequest(`POST body is expected to be object but received ${read.value === null ? 'null' : typeof read.value}`);
  }
  return refuseUnsafe(read.value as GraphQLParams, read.unsafe);
}

function fromSearchParams(search: URLSearchParams): GraphQLParams {
  let unsafe = false;
  const json = (name: string) => {
    const text = search.get(name);
    if (!text) return undefined;
    const read = readOrRefuse(text, MAX_JSON_DEPTH, `Query parameter "${name}" is not valid JSON`);
    unsafe ||= read.unsafe;
    return read.value as Record<string, unknown>;
  };
  const params: GraphQLParams = {
    operationName: search.get('operationName') || undefined,
    query: search.get('query') || undefined,
    variables: json('variables'),
    extensions: json('extensions'),
  };
  // A persisted operation's id (`?doc_id=`): a GET an HTTP cache can keep.
  for (const field of PERSISTED_ID_FIELDS) {
    const id = search.get(field);
    if (id) (params as Record<string, unknown>)[field] = id;
  }
  return refuseUnsafe(params, unsafe);
}

/** Where the files of a multipart request go: `variables.file`, at most as deep as variables may be. */
function placeFiles(operations: GraphQLParams, form: FormData): void {
  const map = form.get('map');
  if (map === null) return;
  if (typeof map !== 'string') throw badRequest('Multipart form field "map" must be a string');
  const read = readOrRefuse(map, MAX_JSON_DEPTH, 'Multipart form field "map" must be a valid JSON string');
  for (const [field, paths] of Object.entries((read.value ?? {}) as Record<string, unknown>)) {
    if (!Array.isArray(paths)) throw badRequest('Multipart form field "map" must map each file to a list of paths');
    const file = form.get(field);
    for (const path of paths) {
      const keys = String(path).split('.');
      if (keys.length > MAX_JSON_DEPTH + 1) throw badUserInput(TOO_DEEP);
      let at = operations as Record<string, unknown>;
      for (const [i, key] of keys.entries()) {
        if (key === '__proto__' || key === 'constructor' || key === 'prototype') break;
        if (i === keys.length - 1) {
          at[key] = file;
        } else {
          if (!Object.hasOwn(at, key) || typeof at[key] !== 'object' || at[key] === null) at[key] = {};
          at = at[key] as Record<string, unknown>;
        }
      }
    }
  }
}

/**
 * The body, read; a body that fails to arrive (cut off past the size limit, whose caller already
 * has its 413) is the caller's problem, as Yoga's own parsers have it, and no crash to log.
 */
async function readBody<T>(read: () => Promise<T>, failed: string): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof Error && error.name !== 'AbortError' && error.name !== 'TimeoutError') throw badRequest(`${failed}: ${error.message}`);
    throw error;
  }
}

async function fromMultipart(request: Request): Promise<GraphQLParams> {
  const form = await readBody(() => request.formData(), 'POST body sent invalid multipart data');
  const operations = form.get('operations');
  if (!operations) throw badRequest('Missing multipart form field "operations"');
  if (typeof operations !== 'string') throw badRequest('Multipart form field "operations" must be a string');
  const params = envelope(operations, 'Multipart form field "operations" must be a valid JSON string');
  placeFiles(params, form);
  return params;
}

/** The request's media type is `expected`, with or without parameters (`; charset=utf-8`). */
export function contentTypeIs(request: Request, expected: string): boolean {
  const type = request.headers.get('content-type')?.split(',')[0];
  return type === expected || !!type?.startsWith(`${expected};`);
}

/** The parser for this request, or null for those Yoga's own parsers take (`application/graphql`: a query alone). */
export function boundedRequestParser(request: Request): ((request: Request) => Promise<GraphQLParams>) | null {
  if (request.method === 'GET') return async (r) => fromSearchParams(new URL(r.url).searchParams);
  if (request.method !== 'POST') return null;
  if (contentTypeIs(request, 'application/json') || contentTypeIs(request, 'application/graphql+json')) {
    return async (r) => envelope(await readBody(() => r.text(), 'POST body could not be read'), 'POST body sent invalid JSON.');
  }
  if (contentTypeIs(request, 'application/x-www-form-urlencoded')) {
    return async (r) => fromSearchParams(new URLSearchParams(await readBody(() => r.text(), 'POST body could not be read')));
  }
  if (contentTypeIs(request, 'multipart/form-data')) return fromMultipart;
  return null;
}

const ENVELOPE_KEYS = new Set(['query', 'variables', 'operationName', 'extensions']);
const PERSISTED_KEYS = new Set([...ENVELOPE_KEYS, ...PERSISTED_ID_FIELDS]);
const isObjectOrAbsent = (value: unknown) => value == null || (typeof value === 'object' && !Array.isArray(value));

/**
 * A JSON POST body as it is when nothing about it needs an answer of its own: an object of the
 * four known fields with a query, and none of what `envelope` refuses. With `persisted`, the id
 * fields of a persisted operation may stand beside them, and an id may stand for the query. Null
 * otherwise, for Yoga's parsers to read it again and say what is wrong, in their words.
 */
export function jsonBodyParams(text: string, persisted = false): GraphQLParams | null {
  let params: GraphQLParams;
  try {
    params = envelope(text, 'POST body sent invalid JSON.');
  } catch {
    return null;
  }
  if (Array.isArray(params)) return null;
  if (typeof params.query !== 'string' && !(persisted && params.query == null && persistedOperationId(params) !== null)) return null;
  const known = persisted ? PERSISTED_KEYS : ENVELOPE_KEYS;
  for (const key of Object.keys(params)) if (!known.has(key)) return null;
  if (!isObjectOrAbsent(params.variables) || !isObjectOrAbsent(params.extensions)) return null;
  if (params.operationName != null && typeof params.operationName !== 'string') return null;
  return params;
}
