import { GraphQLError, type ExecutionResult } from 'graphql';
import { isAsyncIterable, processRegularResult, type FetchAPI, type GraphQLParams } from 'graphql-yoga';
import { contentTypeIs, jsonBodyParams } from '../graphql/request-parser';
import { persistedOperationId, type PersistedOperations } from '../graphql/persisted';

/** What this path uses of a Yoga instance. */
interface Yoga<S> {
  fetch(request: Request, serverContext: S): Response | Promise<Response>;
  fetchAPI: FetchAPI;
  getResultForParams(run: { params: GraphQLParams; request: Request }, context: S): unknown;
}

type RegularMediaType = 'application/json' | 'application/graphql-response+json';

/**
 * The answer's media type as Yoga would choose it among its two plain-JSON result processors, or
 * null when the request may want something else (an event stream, multipart) or says nothing Yoga
 * would take. Yoga goes through the Accept list in reverse and lets the last match win, so the
 * first entry that matches decides; a wildcard matches both and Yoga's later one, JSON.
 */
function regularMediaType(accept: string | null): RegularMediaType | null {
  const entries = (accept || '*/*').replace(/\s/g, '').toLowerCase().split(',');
  for (const entry of entries) {
    const [type, ...params] = entry.split(';');
    const charset = params.find((p) => p.includes('charset=')) ?? 'charset=utf-8';
    if (charset !== 'charset=utf-8') continue;
    if (type === 'application/json' || type === 'application/*' || type === '*/*') return 'application/json';
    if (type === 'application/graphql-response+json') return 'application/graphql-response+json';
    // Anything else (text/event-stream, multipart/mixed) may be the one Yoga would serve.
    return null;
  }
  return null;
}

/**
 * Words that may make the answer a stream (a subscription, `@defer`, `@stream`): Yoga picks how to
 * send those, so a document that merely might hold one goes Yoga's whole way.
 */
const MAY_STREAM = /subscription|@defer|@stream/;

/**
 * The common GraphQL request, a JSON POST asking for a JSON answer, run through the same Yoga and
 * the same envelop plugins, minus Yoga's HTTP layer: its second server adapter (which copies the
 * server context for every request), its request-parsing and response hooks, and the content
 * negotiation that the Accept header has already settled. That layer was half of a `{ __typename }`
 * request's CPU. Every other request, and any body this path would read differently, gets Yoga's
 * own handling: the body is handed back as it came.
 */
export function graphqlPost<S extends object>(yoga: Yoga<S>, persisted?: PersistedOperations) {
  /** The document a request runs: its query, or the persisted operation its id names ('' when none). */
  const documentOf = (params: GraphQLParams) => params.query ?? persisted?.texts.get(persistedOperationId(params) ?? '') ?? '';
  return async function answer(request: Request, serverContext: S): Promise<Response> {
    const mediaType = request.method === 'POST' && contentTypeIs(request, 'application/json') ? regularMediaType(request.headers.get('accept')) : null;
    if (!mediaType) return yoga.fetch(request, serverContext);
    const text = await request.text();
    const params = jsonBodyParams(text, persisted !== undefined);
    if (!params || MAY_STREAM.test(documentOf(params))) {
      const again = new yoga.fetchAPI.Request(request.url, { method: 'POST', headers: request.headers, body: text, signal: request.signal });
      return yoga.fetch(again, serverContext);
    }
    let result: ExecutionResult | AsyncIterable<ExecutionResult> | undefined;
    try {
      result = (await yoga.getResultForParams({ params, request }, serverContext)) as typeof result;
    } catch (error) {
      // A refusal thrown while the params are read (an unknown persisted id, query text where only
      // persisted operations run) is answered alone, as Yoga's handler answers it: it is no crash.
      if (!(error instanceof GraphQLError) || error.originalError) throw error;
      result = { errors: [error] };
    }
    if (result === undefined || isAsyncIterable(result)) {
      // Not reached for the documents let through above; were it, the stream is closed, not leaked.
      if (result) await (result as AsyncIterable<unknown>)[Symbol.asyncIterator]().return?.();
      return new yoga.fetchAPI.Response(null, { status: 406, statusText: 'Not Acceptable' });
    }
    return processRegularResult(result, yoga.fetchAPI, mediaType);
  };
}
