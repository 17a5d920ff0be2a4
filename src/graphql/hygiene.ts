import { Kind, type ValidationRule } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { isUnsafeString, unsafeStringMessage } from '../lib/input-hygiene';
import { badUserInput, boundedRequestParser } from './request-parser';

/** String literals written inline in the document (`title: "a\u0000"`), checked while validating. */
const safeLiteralsRule: ValidationRule = (context) => ({
  [Kind.STRING](node) {
    if (isUnsafeString(node.value)) context.reportError(badUserInput(unsafeStringMessage('A string literal'), [node]));
  },
});

/**
 * The GraphQL door of input hygiene (see lib/input-hygiene and lib/json-input): variables,
 * extensions and the operation name while the request is parsed (./request-parser), inline
 * literals while validating; either way nothing runs.
 */
export function useInputHygiene(): Plugin {
  return {
    onRequestParse({ request, setRequestParser }) {
      const parser = boundedRequestParser(request);
      if (parser) setRequestParser(parser);
    },
    onValidate({ addValidationRule }) {
      addValidationRule(safeLiteralsRule);
    },
  };
}
