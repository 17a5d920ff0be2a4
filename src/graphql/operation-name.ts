import { getOperationAST } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { annotateRequest } from '../lib/log';

/** Puts the executed operation's name in the request log line ("anonymous" when it has none). */
export function useOperationName(): Plugin {
  return {
    onExecute({ args }) {
      const operation = getOperationAST(args.document, args.operationName ?? undefined);
      annotateRequest({ operationName: operation?.name?.value ?? 'anonymous' });
    },
  };
}
