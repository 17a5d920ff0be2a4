import { getNamedType, getOperationAST, GraphQLError, isCompositeType, isObjectType, type GraphQLSchema } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { RequestContext } from '../context/request-context';
import { QueryTooComplexError, ResponseTooLargeError } from '../domain/errors';

/**
 * Makes every field that leads to more work (one returning an object or a list of objects) refuse
 * to run once the request's work has stopped (see WorkBounds): the rest of the query then resolves
 * nothing more below it. Scalar fields are left alone: they only read what is already loaded.
 * Done once, on the built schema, so compiled queries (graphql-jit) call the guarded resolvers.
 */
export function guardResolvers(schema: GraphQLSchema): GraphQLSchema {
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith('__')) continue;
    for (const field of Object.values(type.getFields())) {
      const resolve = field.resolve;
      if (!resolve || !isCompositeType(getNamedType(field.type))) continue;
      field.resolve = (source, args, ctx: RequestContext, info) => {
        if (ctx.bounds.stopped) throw ctx.bounds.stopped;
        return resolve(source, args, ctx, info);
      };
    }
  }
  return schema;
}

/**
 * Once a request's work has stopped, its answer is the reason alone, not the part built so far:
 * RESPONSE_TOO_LARGE with HTTP 400 (the caller asked for too much at once, as with
 * QUERY_TOO_COMPLEX), or SERVICE_UNAVAILABLE with 503 when nobody waits for it any more. A
 * mutation's writes may be done, though: its answer keeps what was built (the texts counted past
 * the limit are left out, so it is no larger), with the error beside it, and HTTP 200.
 */
export function useWorkBounds(): Plugin {
  return {
    onExecute({ args }) {
      const ctx = args.contextValue as unknown as RequestContext;
      return {
        onExecuteDone({ result, setResult }) {
          // Read now: routing to a replica (src/app/read-routing.ts) gives the context other bounds.
          const { bounds } = ctx;
          if (!bounds.stopped || Symbol.asyncIterator in result) return;
          const tooLarge = bounds.stopped instanceof ResponseTooLargeError || bounds.stopped instanceof QueryTooComplexError;
          if (tooLarge && getOperationAST(args.document, args.operationName)?.operation === 'mutation') {
            setResult({ ...result, errors: [...(result.errors ?? []), new GraphQLError(bounds.stopped.message, { extensions: { code: bounds.stopped.code } })] });
            return;
          }
          setResult({ data: null, errors: [stoppedError(bounds.stopped)], extensions: result.extensions });
        },
      };
    },
  };
}

function stoppedError(reason: Error): GraphQLError {
  if (reason instanceof ResponseTooLargeError) return new GraphQLError(reason.message, { extensions: { code: 'RESPONSE_TOO_LARGE', http: { status: 400 } } });
  // As the same limit refused before execution: 400 whatever the client accepts.
  if (reason instanceof QueryTooComplexError) return new GraphQLError(reason.message, { extensions: { code: 'QUERY_TOO_COMPLEX', http: { status: 400, spec: false } } });
  return new GraphQLError(reason.message, { extensions: { code: 'SERVICE_UNAVAILABLE', http: { status: 503 } } });
}

/** A large text (a page body, a diff) counted into the answer as it is resolved. */
export function counted<T extends string | null>(ctx: RequestContext, text: T): T {
  return text === null ? text : ctx.bounds.count(text);
}
