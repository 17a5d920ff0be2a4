import type { Plugin } from 'graphql-yoga';
import type { RequestContext } from '../context/request-context';

/*
 * A query for `viewer` sent without a token answers `viewer: null`, which is right but says
 * nothing to someone trying the API in GraphiQL for the first time. The answer then carries a
 * line on how to sign in, in `extensions.signIn`; a signed-in answer carries nothing more.
 */
export const SIGN_IN_HINT =
  'No API token was sent, so viewer is null. Send the header Authorization: Bearer <token> (in GraphiQL: the Headers pane). ' +
  "The server's first start prints a demo token; `npm run quire -- token create --email <e-mail>` makes more.";

export function useSignInHint(): Plugin<{ viewer?: RequestContext['viewer'] }> {
  return {
    onExecute({ args }) {
      if (args.contextValue.viewer) return;
      return {
        onExecuteDone({ result, setResult }) {
          if (Symbol.asyncIterator in result) return;
          const data = result.data as Record<string, unknown> | null | undefined;
          if (!data || !('viewer' in data) || data.viewer !== null) return;
          setResult({ ...result, extensions: { ...result.extensions, signIn: SIGN_IN_HINT } });
        },
      };
    },
  };
}
