import { GraphQLError, Lexer, Source, TokenKind } from 'graphql';

const OPENING = new Set<string>([TokenKind.BRACE_L, TokenKind.BRACKET_L, TokenKind.PAREN_L]);
const CLOSING = new Set<string>([TokenKind.BRACE_R, TokenKind.BRACKET_R, TokenKind.PAREN_R]);

/**
 * Whether the document nests braces, brackets and parentheses more than `limit` deep, counted
 * over its tokens before graphql-js parses it: its parser recurses once per level, and a list
 * literal 2,400 levels deep (well under the token limit) overflows the stack. Stops at `maxTokens`
 * tokens or at a syntax error, both of which the parser reports itself.
 */
export function nestsDeeperThan(source: string | Source, limit: number, maxTokens: number): boolean {
  const lexer = new Lexer(typeof source === 'string' ? new Source(source) : source);
  let depth = 0;
  try {
    for (let n = 0; n < maxTokens; n++) {
      const kind = lexer.advance().kind;
      if (kind === TokenKind.EOF) return false;
      if (OPENING.has(kind)) {
        if (++depth > limit) return true;
      } else if (CLOSING.has(kind)) {
        depth--;
      }
    }
  } catch (error) {
    if (error instanceof GraphQLError) return false;
    throw error;
  }
  return false;
}
