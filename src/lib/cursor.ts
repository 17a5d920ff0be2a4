/**
 * Opaque page cursors: the sort-key values of a row, as base64url JSON. Dates travel as
 * `{ d: iso }` so they come back as dates. Decoding answers null for anything that is not a
 * cursor of the expected arity, so callers decide how to refuse it without catching.
 */
export type CursorValue = string | number | Date | null;

export function encodeCursor(values: readonly CursorValue[]): string {
  const plain = values.map((v) => (v instanceof Date ? { d: v.toISOString() } : v));
  return Buffer.from(JSON.stringify(plain), 'utf8').toString('base64url');
}

function decodeValue(v: unknown): CursorValue | undefined {
  if (v === null || typeof v === 'string' || typeof v === 'number') return v;
  if (v && typeof v === 'object' && typeof (v as { d?: unknown }).d === 'string') {
    const date = new Date((v as { d: string }).d);
    return Number.isNaN(date.getTime()) ? undefined : date;
  }
  return undefined;
}

export function decodeCursor(cursor: string, arity: number): CursorValue[] | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  if (!Array.isArray(parsed) || parsed.length !== arity) return null;
  const values = parsed.map(decodeValue);
  return values.includes(undefined) ? null : (values as CursorValue[]);
}
