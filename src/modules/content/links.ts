import type { Resolver } from './markdown';
import type { RevisionTree } from './tree';

const HAS_SCHEME = /^[a-z][a-z0-9+.-]*:/i;

/** `a/b` joined with `../c` and the like, from the top of the space; null when it climbs above it. */
function join(folder: string, relative: string): string | null {
  const parts = relative.startsWith('/') ? [] : folder.split('/').filter(Boolean);
  for (const segment of relative.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (!parts.length) return null;
      parts.pop();
    } else parts.push(segment);
  }
  return parts.join('/');
}

/** A path as written in markdown, as a page path: no `.md`, and a folder's README is the folder. */
function pagePath(path: string): string {
  return path.replace(/\.md$/i, '').replace(/(^|\/)README$/i, '').replace(/\/$/, '');
}

/**
 * How the links of a page's markdown resolve in a revision. URLs with a scheme are external (or
 * in-app, when they point at the app); `#anchor` stays in the page; anything else is a path,
 * relative to the page's folder or, failing that, to the page itself, or absolute from the top:
 * a page of the revision, a file (by `files/<id>` or by name), or broken.
 */
export function resolverFor(tree: RevisionTree, fromPath: string, appUrl: string): Resolver {
  const folder = fromPath.includes('/') ? fromPath.slice(0, fromPath.lastIndexOf('/')) : '';
  const filesByName = new Map(tree.files.map((f) => [f.data.name, f.data.id]));
  return (href) => {
    if (HAS_SCHEME.test(href)) return { ref: { kind: 'url', url: href }, status: href.startsWith(`${appUrl}/`) ? 'in-app' : 'external' };
    if (href.startsWith('#')) return { ref: { kind: 'anchor', anchor: href.slice(1) }, status: 'ok' };
    const [rawPath, anchor] = href.split('#', 2);
    let path: string;
    try {
      path = decodeURI(rawPath);
    } catch {
      path = rawPath;
    }
    const fileId = /^\/?files\/([^/]+)$/.exec(path)?.[1] ?? filesByName.get(path.split('/').pop() ?? '');
    if (fileId && tree.filesById.has(fileId)) return { ref: { kind: 'file', file: fileId }, status: 'ok' };
    for (const base of [folder, fromPath]) {
      const target = join(base, path);
      const entry = target === null ? undefined : tree.byPath.get(pagePath(target));
      if (entry) {
        const page = entry.page.data.id;
        return { ref: anchor ? { kind: 'anchor', anchor, page } : { kind: 'page', page }, status: 'ok' };
      }
    }
    return { ref: { kind: 'url', url: href }, status: 'broken' };
  };
}
