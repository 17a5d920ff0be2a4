import { Param, SQL, StringChunk } from 'drizzle-orm';
import { appDialect } from './dialect';

/**
 * The same SQL, rendered to text once: its text between parameters and its parameters, as few
 * chunks. drizzle walks a statement's whole chunk tree again on every run, and a reader's
 * visibility filter is hundreds of chunks: 8% of a reader's list went to rendering it. Only for
 * SQL built by a pure function of its arguments, kept for those arguments; the parameters stay
 * parameters (numbered again inside the statement that holds it).
 */
export function prerendered(chunk: SQL): SQL {
  const { sql: text, params } = appDialect.sqlToQuery(chunk);
  const pieces = text.split(/\$(\d+)(?!\d)/);
  // Parameters referenced out of order or twice (or a `$n` that is not one) keep the SQL as it was.
  const inOrder = pieces.every((piece, i) => i % 2 === 0 || Number(piece) === (i + 1) / 2);
  if (!inOrder || (pieces.length - 1) / 2 !== params.length) return chunk;
  return new SQL(pieces.map((piece, i) => (i % 2 === 0 ? new StringChunk(piece) : new Param(params[(i - 1) / 2]))));
}
