import { GraphQLError, Kind, type ASTNode, type ValidationRule } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { findUnsafeString, isUnsafeString, unsafeStringMessage } from '../lib/input-hygiene';

function badInput(message: string, nodes?: readonly ASTNode[]): GraphQLError {
  return new GraphQLError(message, { nodes, extensions: { code: 'BAD_USER_INPUT', http: { status: 400 } } });
}

/** String literals written inline in the document (`title: "a\u0000"`), checked while validating. */
const safeLiteralsRule: ValidationRule = (context) => ({
  [Kind.STRING](node) {
    if (isUnsafeString(node.value)) context.reportError(badInput(unsafeStringMessage('A string literal'), [node]));
  },
});

/**
 * The GraphQL door of input hygiene (see lib/input-hygiene): variables and the operation name
 * when the request arrives, inline literals while validating; either way nothing runs.
 */
export function useInputHygiene(): Plugin {
  return {
    onParams({ params, setResult }) {
      const variable = findUnsafeString(params.variables ?? null);
      if (variable) {
        return setResult({ errors: [badInput(unsafeStringMessage(`Variable "$${variable.join('.')}"`))] });
      }
      if (typeof params.operationName === 'string' && isUnsafeString(params.operationName)) {
        return setResult({ errors: [badInput(unsafeStringMessage('The operation name'))] });
      }
    },
    onValidate({ addValidationRule }) {
      addValidationRule(safeLiteralsRule);
    },
  };
}
