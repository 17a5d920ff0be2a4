import { GitBookAPI, type GitBookAPIError, type PublishedContentSite, type PublishedSiteContent, type PublishedSiteContentLookup, type RevisionPage } from '@gitbook/api';
import { validateLaterSchema, validateResponse, validateSchema } from './openapi';
import { META_LINKS } from './served';

/*
 * The calls the platform's open-source renderer (GitbookIO/gitbook, packages/gitbook) makes for one
 * page, in its order, through the official client: the URL lookup of every shortened form of the URL
 * at once (src/lib/data/lookup.ts, urls.ts), the site and the space, the revision, a redirect and a
 * lookup by path when the tree lacks the path (src/components/SitePage/fetch.ts), the page's meta
 * links and its document. Every answer, refusals included, is held to the spec as it arrives.
 */

/** One call as Quire's request log shows it. */
export interface Call {
  method: string;
  /** Path and query, from `/v1`. */
  path: string;
  status: number;
}

/** A shortened form of the URL to look up, and the part of the path it leaves out. */
export interface LookupForm {
  url: string;
  extraPath: string;
  /** The longest form: the renderer keeps its answer, or else a complete one. */
  primary: boolean;
}

/**
 * The renderer's lookup forms of a URL outside `*.gitbook.io`: the host alone, then the first one to
 * four path segments, the longest one primary (getURLLookupAlternatives). The query is dropped.
 */
export function lookupForms(text: string): LookupForm[] {
  const url = new URL(text);
  url.search = '';
  url.pathname = url.pathname.replace(/\/{2,}/g, '/').replace(/\/$/, '');
  const segments = url.pathname.slice(1).split('/').filter(Boolean);
  const forms: LookupForm[] = [];
  for (let i = 0; i <= Math.min(4, segments.length); i++) {
    const form = new URL(url);
    form.pathname = `/${segments.slice(0, i).join('/')}`;
    forms.push({ url: form.toString(), extraPath: segments.slice(i).join('/'), primary: false });
  }
  forms[forms.length - 1].primary = true;
  return forms;
}

const joinPath = (...parts: string[]) => parts.filter(Boolean).join('/');

/** The first element of each page's `pages`, depth first, as the renderer flattens the tree. */
function* flatten(pages: RevisionPage[]): Generator<RevisionPage> {
  for (const page of pages) {
    yield page;
    if ('pages' in page && page.pages) yield* flatten(page.pages as RevisionPage[]);
  }
}

export type Rendered =
  | { kind: 'page'; lookup: PublishedSiteContent; published: PublishedContentSite; title: string; pageId: string; document: unknown; metaLinks: unknown }
  | { kind: 'redirect'; redirect: string; target: string }
  | { kind: 'missing'; status: number; lookup?: PublishedSiteContent };

/** A renderer on one served app: its calls so far, and what did not match the spec. */
export class RendererWalk {
  readonly calls: Call[] = [];
  readonly mismatches: string[] = [];
  /** What each lookup form answered, for the page last rendered. */
  lookups: { form: LookupForm; answer: PublishedSiteContentLookup | null; status: number }[] = [];

  constructor(private readonly endpoint: string) {}

  /** The official client, with every answer recorded and checked against the spec. */
  client(token?: string): GitBookAPI {
    return new GitBookAPI({
      endpoint: this.endpoint,
      ...(token ? { authToken: token } : {}),
      serviceBinding: { fetch: (input: RequestInfo | URL, init?: RequestInit) => this.record(input, init) },
    });
  }

  private async record(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
    const response = await fetch(input, init);
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input : input.url);
    const method = (init?.method ?? 'GET').toUpperCase();
    const path = `${url.pathname}${url.search}`;
    this.calls.push({ method, path, status: response.status });
    const text = await response.clone().text();
    try {
      const body = text ? JSON.parse(text) : undefined;
      // The meta-links route is later than the vendored spec: its schema is copied from a later release.
      if (url.pathname.endsWith('/meta-links')) {
        if (response.ok) validateLaterSchema('RevisionPageMetaLinks', META_LINKS, body);
        else validateSchema('Error', body);
      } else validateResponse(method, path, response.status, body);
    } catch (error) {
      this.mismatches.push(`${method} ${path} ${response.status}: ${(error as Error).message}`);
    }
    return response;
  }

  /** The calls made since `from`, as `METHOD /path status` lines. */
  log(from = 0): string[] {
    return this.calls.slice(from).map((c) => `${c.method} ${c.path} ${c.status}`);
  }

  /** Renders one URL as the renderer does, with the visitor's token (or none). */
  async render(url: string, visitor: { jwtToken?: string } = {}): Promise<Rendered> {
    const anonymous = this.client();
    const forms = lookupForms(url);
    this.lookups = await Promise.all(
      forms.map(async (form) => {
        try {
          const { data } = await anonymous.urls.resolvePublishedContentByUrl({ url: form.url, visitor: { unsignedClaims: {}, type: 'human', ...visitor }, redirectOnError: false } as never);
          return { form, answer: data, status: 200 };
        } catch (error) {
          return { form, answer: null, status: (error as GitBookAPIError).code };
        }
      }),
    );
    const primary = this.lookups.find((l) => l.form.primary)!;
    const complete = this.lookups.find((l) => !l.form.primary && l.answer && !('redirect' in l.answer) && l.answer.complete);
    const chosen = complete ?? primary;
    if (!chosen.answer) return { kind: 'missing', status: chosen.status };
    if ('redirect' in chosen.answer) return { kind: 'redirect', redirect: chosen.answer.redirect, target: chosen.answer.target };
    const lookup: PublishedSiteContent = { ...chosen.answer, pathname: joinPath(chosen.answer.pathname, chosen.form.extraPath) };

    const api = this.client(lookup.apiToken);
    const revisionId = lookup.revision;
    if (!revisionId) throw new Error('the lookup named no revision');
    const shareKey = lookup.shareKey;
    const [{ data: published }] = await Promise.all([
      api.orgs.getPublishedContentSite(lookup.organization, lookup.site, { shareKey } as never),
      api.spaces.getSpaceById(lookup.space, { shareKey } as never),
    ]);
    const { data: revision } = await api.spaces.getRevisionById(lookup.space, revisionId, { metadata: true });

    const pathname = lookup.pathname.toLowerCase();
    const pages = [...flatten(revision.pages)];
    let page = pathname ? pages.find((p) => p.type !== 'group' && 'path' in p && p.path === pathname) : pages.find((p) => p.type === 'document');
    if (!page) {
      const redirected = await api.orgs.getSiteRedirectBySource(lookup.organization, lookup.site, { source: `/${lookup.pathname}`, shareKey } as never).catch((e: GitBookAPIError) => e);
      if (!('code' in redirected) || redirected.code !== 404) throw new Error(`the site redirect lookup answered ${'code' in redirected ? redirected.code : 200}`);
      const byPath = await api.spaces.getPageInRevisionByPath(lookup.space, revisionId, lookup.pathname).catch((e: GitBookAPIError) => e);
      if ('code' in byPath) return { kind: 'missing', status: byPath.code, lookup };
      page = pages.find((p) => p.id === byPath.data.id);
      if (!page) return { kind: 'missing', status: 404, lookup };
    }
    const base = `/spaces/${lookup.space}/revisions/${revisionId}/page/${page.id}`;
    // The vendored client (0.137.0) has no listRevisionPageMetaLinks yet: the same request through its transport.
    const { data: metaLinks } = await api.request({ path: `${base}/meta-links`, method: 'GET', secure: true, format: 'json' });
    // The renderer asks with string values 0.137.0's types do not list yet.
    const { data: document } = await api.spaces.getPageDocumentInRevisionById(lookup.space, revisionId, page.id, { evaluated: 'deterministic-only', dereferenced: 'reusable-contents' } as never);
    return { kind: 'page', lookup, published, title: page.title, pageId: page.id, document, metaLinks };
  }
}
