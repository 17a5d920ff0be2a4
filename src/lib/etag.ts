import { createHash } from 'node:crypto';

/** A strong ETag of the exact text answered. */
export function etagOf(text: string): string {
  return `"${createHash('sha256').update(text).digest('base64url').slice(0, 27)}"`;
}

/** Whether an If-None-Match header names this tag (a list, `*`, or weak forms of it). */
export function ifNoneMatchHolds(header: string | null, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || t === etag || t === `W/${etag}`;
  });
}
