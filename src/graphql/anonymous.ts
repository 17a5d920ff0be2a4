import { NoSchemaIntrospectionCustomRule, specifiedRules, validate, type ValidationRule } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { RequestContext } from '../context/request-context';

/**
 * Marks a validation as an anonymous caller's. Yoga caches validation results by the names of the
 * rules: with this one in the list, an anonymous caller never gets a signed-in caller's cached
 * errors (suggestions included), nor the other way round.
 */
const AnonymousCaller: ValidationRule = () => ({});

/** Validates with suggestions left out; envelop may hand over only the rules plugins added. */
const validateQuietly = (schema: Parameters<typeof validate>[0], document: Parameters<typeof validate>[1], rules?: readonly ValidationRule[]) => {
  const all = rules?.some((rule) => specifiedRules.includes(rule)) ? rules : [...specifiedRules, ...(rules ?? [])];
  return validate(schema, document, all, { hideSuggestions: true });
};

/**
 * What a caller without a token learns of the schema beyond what it asks: no "Did you mean ...?"
 * suggestions, which would let it guess field names one typo at a time, and, when the setting
 * turns it off, no introspection. Signed-in callers keep both: they are the ones writing queries.
 */
export function useAnonymousLimits(options: { introspection: boolean }): Plugin<RequestContext> {
  return {
    onValidate({ context, addValidationRule, setValidationFn }) {
      // The request's context is the server context itself (src/app/app.ts), so it is there already.
      if (context.viewer) return;
      addValidationRule(AnonymousCaller);
      if (!options.introspection) addValidationRule(NoSchemaIntrospectionCustomRule);
      setValidationFn(validateQuietly as typeof validate);
    },
  };
}
