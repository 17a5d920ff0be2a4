import { Response } from '../lib/response';
import type { ZodType } from 'zod';
import { requireViewer, type RequestContext } from '../context/request-context';
import { DomainError, ValidationError } from '../domain/errors';
import { annotateRequest } from '../lib/log';
import { domainErrorResponse, errorResponse } from './errors';
import { readJson, tooDeepMessage } from '../lib/json-input';
import { refuseUnsafeInput, type ReadBody } from './hygiene';
import { revisionAnswer } from './revision-caching';

export interface RestRequest {
  ctx: RequestContext;
  params: Record<string, string>;
  query: URLSearchParams;
  /** The parsed JSON body; undefined when the request has none. */
  body: unknown;
}

export type RestResult = {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  /**
   * A read of content named by a revision id: the answer carries an ETag and says how long it may
   * be kept (see `revisionCaching`); `fixed` when nothing in it can change.
   */
  revision?: { fixed: boolean };
};
export type RestHandler = (req: RestRequest) => Promise<RestResult>;

/** What the OpenAPI document says of a route beyond its method and path. */
export interface RouteMeta {
  summary?: string;
  /** The zod schema its service checks the body with: the document shows it as the request body. */
  body?: ZodType;
  /** Answers callers without a token too (the service decides what they get). */
  anonymous?: boolean;
}

/** One routed operation, as the OpenAPI document reads it. */
export interface RouteEntry {
  method: string;
  path: string;
  meta?: RouteMeta;
}

interface Route extends RouteEntry {
  segments: string[];
  handler: RestHandler;
}

/** A small exact-path router: `/v1/orgs/:organizationId/members/:userId`, and `*rest` to end a path. */
export class RestRouter {
  private routes: Route[] = [];

  add(method: string, path: string, handler: RestHandler, meta?: RouteMeta): this {
    this.routes.push({ method, path, meta, segments: path.split('/').filter(Boolean), handler });
    return this;
  }

  get = (path: string, handler: RestHandler, meta?: RouteMeta) => this.add('GET', path, handler, meta);
  post = (path: string, handler: RestHandler, meta?: RouteMeta) => this.add('POST', path, handler, meta);
  put = (path: string, handler: RestHandler, meta?: RouteMeta) => this.add('PUT', path, handler, meta);
  patch = (path: string, handler: RestHandler, meta?: RouteMeta) => this.add('PATCH', path, handler, meta);
  delete = (path: string, handler: RestHandler, meta?: RouteMeta) => this.add('DELETE', path, handler, meta);

  /** The routed operations, in the order they were added. */
  table(): RouteEntry[] {
    return this.routes.map(({ method, path, meta }) => ({ method, path, meta }));
  }

  /** Every route as `{ method, path }`, in the order they were added: for generated tests. */
  list(): { method: string; path: string }[] {
    return this.routes.map((route) => ({ method: route.method, path: `/${route.segments.join('/')}` }));
  }

  private match(method: string, pathname: string): { route?: Route; params: Record<string, string>; pathMatched: boolean } {
    const parts = pathname.split('/').filter(Boolean);
    let pathMatched = false;
    for (const route of this.routes) {
      // A last segment `*name` takes the rest of the path, slashes included (a page's path).
      const rest = route.segments.at(-1)?.startsWith('*');
      if (rest ? parts.length < route.segments.length : route.segments.length !== parts.length) continue;
      const params: Record<string, string> = {};
      const ok = route.segments.every((seg, i) => {
        if (seg.startsWith('*')) {
          params[seg.slice(1)] = parts.slice(i).map(decodePathSegment).join('/');
          return true;
        }
        if (seg.startsWith(':')) {
          params[seg.slice(1)] = decodePathSegment(parts[i]);
          return true;
        }
        return seg === parts[i];
      });
      if (!ok) continue;
      pathMatched = true;
      if (route.method === method) return { route, params, pathMatched };
    }
    return { params: {}, pathMatched };
  }

  /** Answers one request; `makeContext` authenticates it (and throws for a bad token). */
  async handle(request: Request, makeContext: () => Promise<RequestContext>): Promise<Response> {
    const url = new URL(request.url);
    let ctx: RequestContext | undefined;
    try {
      const { route, params, pathMatched } = this.match(request.method, url.pathname);
      if (!route) {
        return pathMatched
          ? errorResponse(405, `Method ${request.method} is not allowed on ${url.pathname}`)
          : errorResponse(404, `No route for ${request.method} ${url.pathname}`);
      }
      annotateRequest({ route: `/${route.segments.join('/')}` });
      ctx = await makeContext();
      if (!route.meta?.anonymous) requireViewer(ctx);
      const body = await readBody(request);
      refuseUnsafeInput(params, url.searchParams, body);
      const result = await route.handler({ ctx, params, query: url.searchParams, body: body.value });
      if (result.revision && result.status === 200) return revisionAnswer(request, result.body, result.revision.fixed, result.headers);
      if (result.status === 204 || result.body === undefined) return new Response(null, { status: result.status, headers: result.headers });
      return Response.json(result.body, { status: result.status, headers: result.headers });
    } catch (error) {
      if (request.method === 'DELETE' && isNotFound(error)) return new Response(null, { status: 204 });
      // Once the work stopped (an answer too large, or nobody waiting), whatever failed after says less than why.
      return domainErrorResponse(ctx?.bounds.stopped ?? error);
    }
  }
}

/**
 * The API's rule for every delete: the target already gone is what the caller asked for, so a
 * missing target, or one the caller may not see (services answer those exactly as missing), or a
 * missing parent of it, answers 204 with nothing deleted. The official spec lists no 404 for any delete.
 */
function isNotFound(error: unknown): boolean {
  return error instanceof DomainError && error.code === 'NOT_FOUND';
}

function decodePathSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new ValidationError(`Malformed escape in path segment "${segment}"`);
  }
}

/** The JSON body, nested at most MAX_JSON_DEPTH levels: a deeper one is refused before it is parsed. */
async function readBody(request: Request): Promise<ReadBody> {
  if (request.method === 'GET' || request.method === 'HEAD') return { value: undefined, unsafe: false };
  const text = await request.text();
  if (text.trim() === '') return { value: undefined, unsafe: false };
  const read = readJson(text);
  if (!read.ok) throw new ValidationError(read.problem === 'too deep' ? tooDeepMessage('The request body') : 'Request body is not valid JSON');
  return read;
}

/** Query flags: "true"/"false", absent gives the default; anything else is a 400. */
export function booleanParam(query: URLSearchParams, name: string, fallback?: boolean): boolean | undefined {
  const raw = query.get(name);
  if (raw === null || raw === '') return fallback;
  if (raw === 'true') return true;
  if (raw === 'false') return false;
  throw new ValidationError(`${name} must be true or false`, [name]);
}

/**
 * A request body handed to a service as its typed input. The service checks it with its zod
 * schema, so a body of any shape gets the same 400 as a bad value.
 */
export function bodyAs<T>(body: unknown): T {
  return body as T;
}

export function optionalParam(query: URLSearchParams, name: string): string | undefined {
  const raw = query.get(name);
  return raw === null || raw === '' ? undefined : raw;
}
