import { getOperationAST } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { createContext, type AppServices } from '../auth/context';
import type { RequestContext } from '../context/request-context';
import type { ReadRouting } from '../db/replica';
import { processLog } from '../lib/log';

/**
 * Whole requests are routed, not statements: a REST GET or a GraphQL query runs on the replica when
 * its caller may read there (src/db/replica.ts), anything else on the primary, and a write records
 * where the WAL stood after it so that the caller's next read, on any instance, sees it.
 */

/** What the GraphQL plugin learns about one request, read back once yoga has answered. */
export interface GraphqlRoute {
  ctx: RequestContext;
  /** The operation was a mutation: record its caller's write position. */
  wrote: boolean;
}

async function onReplica(services: AppServices, reads: ReadRouting, ctx: RequestContext): Promise<RequestContext | null> {
  const replica = await reads.replicaFor(ctx.viewer?.user.id ?? null);
  return replica ? createContext({ ...services, db: replica }, ctx.viewer, ctx.signal) : null;
}

/** Recording is best effort: the write itself succeeded, and a lost position only risks a stale read. */
async function record(reads: ReadRouting, userId: string | undefined): Promise<void> {
  if (!userId) return;
  try {
    await reads.recordWrite(userId);
  } catch (err) {
    processLog().warn({ err, userId }, 'could not record the write position; this caller may read a lagging replica');
  }
}

/** One /v1 request: GET and HEAD on the replica when safe (once more on the primary if it failed there). */
export async function routeRest(
  request: Request,
  services: AppServices,
  reads: ReadRouting,
  makeContext: () => Promise<RequestContext>,
  handle: (makeContext: () => Promise<RequestContext>) => Promise<Response>,
): Promise<Response> {
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    let writer: string | undefined;
    const response = await handle(async () => {
      const ctx = await makeContext();
      writer = ctx.viewer?.user.id;
      return ctx;
    });
    if (response.status < 400) await record(reads, writer);
    return response;
  }
  let onReplicaCtx = false;
  const response = await handle(async () => {
    const ctx = await makeContext();
    const routed = await onReplica(services, reads, ctx);
    onReplicaCtx = routed !== null;
    return routed ?? ctx;
  });
  if (!onReplicaCtx || response.status < 500) return response;
  // The replica went away after its last look said it was up: a read can always be answered again.
  processLog().warn({ status: response.status }, 'a read failed on the replica; answered from the primary');
  return handle(makeContext);
}

/** Moves a GraphQL query onto the replica when its caller may read there; marks mutations. */
export function useReadRouting(services: AppServices, reads: ReadRouting): Plugin<{ quireRoute?: GraphqlRoute }> {
  return {
    async onExecute({ args }) {
      const route = (args.contextValue as { quireRoute?: GraphqlRoute }).quireRoute;
      if (!route) return;
      const operation = getOperationAST(args.document, args.operationName)?.operation;
      if (operation === 'mutation') route.wrote = true;
      if (operation !== 'query') return;
      const routed = await onReplica(services, reads, route.ctx);
      if (routed) Object.assign(args.contextValue as object, { db: routed.db, loaders: routed.loaders, authz: routed.authz, bounds: routed.bounds });
    },
  };
}

/** After yoga answered a mutation: record its caller's write position. */
export async function afterGraphql(reads: ReadRouting, route: GraphqlRoute): Promise<void> {
  if (route.wrote) await record(reads, route.ctx.viewer?.user.id);
}
