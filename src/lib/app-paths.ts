/**
 * The paths of `urls.app` links: which object a path names. The server's app page answers exactly
 * these (anything else stays a 404), and SAML sign-in lands only on one of them. Read from the
 * path alone: no lookup, so an existing, a missing and another organization's id look the same.
 */
export type AppRoute =
  | { kind: 'home' }
  | { kind: 'organization'; org: string }
  | { kind: 'space'; org: string; space: string }
  | { kind: 'page'; org: string; space: string; path: string }
  | { kind: 'changeRequest'; org: string; space: string; number: string }
  | { kind: 'revision'; org: string; space: string; revision: string }
  | { kind: 'collection'; org: string; collection: string }
  | { kind: 'site'; org: string; site: string }
  | { kind: 'openapi'; org: string; slug: string }
  | { kind: 'installation'; org: string; integration: string }
  | { kind: 'integration'; integration: string };

/** Longer than any link the server makes (a page path is at most a few hundred characters). */
export const APP_PATH_MAX = 2048;
const MAX_SEGMENTS = 64;
// Ids, slugs and percent-escapes; no dot segments, no backslashes, no spaces.
const SEGMENT = /^(?!\.{1,2}$)[A-Za-z0-9._~%@!$&'()*+,;=:-]{1,512}$/;

function decoded(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}

/** The object an app path names; null for a path no link uses. */
export function parseAppPath(pathname: string): AppRoute | null {
  if (pathname === '/') return { kind: 'home' };
  if (pathname.length > APP_PATH_MAX || !pathname.startsWith('/')) return null;
  const parts = pathname.slice(1).split('/', MAX_SEGMENTS + 1);
  // The organization's link ends in a slash; every other link does not.
  if (parts.length === 3 && parts[0] === 'o' && parts[2] === '' && SEGMENT.test(parts[1])) return { kind: 'organization', org: parts[1] };
  if (parts.length > MAX_SEGMENTS || !parts.every((p) => SEGMENT.test(p))) return null;
  const [head, org, kind, id, ...rest] = parts;
  if (head === 'integrations' && parts.length === 2) {
    const integration = decoded(org);
    return integration ? { kind: 'integration', integration } : null;
  }
  if (head !== 'o') return null;
  if (parts.length === 2) return { kind: 'organization', org };
  if (parts.length === 4) {
    if (kind === 's') return { kind: 'space', org, space: id };
    if (kind === 'c') return { kind: 'collection', org, collection: id };
    if (kind === 'sites') return { kind: 'site', org, site: id };
    if (kind === 'openapi') return { kind: 'openapi', org, slug: id };
    if (kind === 'integrations') {
      const integration = decoded(id);
      return integration ? { kind: 'installation', org, integration } : null;
    }
    return null;
  }
  if (kind !== 's' || rest.length === 0) return null;
  if (rest[0] === '~') {
    if (rest.length !== 3) return null;
    if (rest[1] === 'changes') return { kind: 'changeRequest', org, space: id, number: rest[2] };
    if (rest[1] === 'revisions') return { kind: 'revision', org, space: id, revision: rest[2] };
    return null;
  }
  return { kind: 'page', org, space: id, path: rest.join('/') };
}
