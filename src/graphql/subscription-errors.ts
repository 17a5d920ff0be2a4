import { GraphQLError } from 'graphql';
import { isAsyncIterable, type Plugin } from 'graphql-yoga';
import { DomainError } from '../domain/errors';

/**
 * A subscription refused before its stream starts (no token, a space the caller cannot see, bad
 * input) answers like a query would: HTTP 200 with the error and its code in the result. graphql-js
 * reports such an error without `data`, and Yoga answers 500 to an error that wraps one of ours in
 * `originalError` when there is no `data`; so each one is re-issued as a plain GraphQL error with
 * the same message, locations, path and code. Subscriptions run on graphql-js (never compiled),
 * so the error still has its AST nodes.
 */
function asRefusal(error: GraphQLError): GraphQLError {
  if (!(error.originalError instanceof DomainError)) return error;
  return new GraphQLError(error.message, { nodes: error.nodes, path: error.path, extensions: error.extensions });
}

export function useSubscriptionErrors(): Plugin {
  return {
    onSubscribe() {
      return {
        onSubscribeResult({ result, setResult }) {
          if (isAsyncIterable(result) || !result.errors?.length) return;
          setResult({ ...result, errors: result.errors.map(asRefusal) });
        },
      };
    },
  };
}
