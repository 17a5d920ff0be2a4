import { unzipSync } from 'fflate';
import type TurndownService from 'turndown';
import { ValidationError } from '../../domain/errors';
import { checkHtml, MAX_HTML_ATTRIBUTES, MAX_HTML_DEPTH, type HtmlCheck } from '../../lib/html-depth';
import { FetchRefused, safeFetch, type FetchedResource } from '../../lib/safe-fetch';
import type { NewFile, NewPage } from '../../domain/content';
import { anchorTargets, htmlTitle, markdownLinks, rewriteMarkdownLinks } from './import-text';
import { slugify, uniqueSlug } from './slugs';

/** The sources this server imports; the other values of the platform's enum are refused by name. */
export const IMPORT_SOURCES = ['website', 'html', 'markdown', 'zip', 'docx'] as const;

/**
 * Imports run inline within these bounds rather than on the job queue: the platform answers the
 * import with its result, and these bounds keep one import to a few seconds of work.
 */
export const IMPORT_LIMITS = { pages: 50, files: 100, bytes: 20 * 1024 * 1024, oneResource: 5 * 1024 * 1024, timeMs: 20_000 };

export interface ImportedContent {
  pages: NewPage[];
  files: NewFile[];
  /** Resources seen (pages and images, fetched or not). */
  total: number;
}

const HTML = ['text/html', 'application/xhtml+xml'];
const MARKDOWN = ['text/markdown', 'text/x-markdown', 'text/plain'];
const IMAGE_EXT = /\.(png|jpe?g|gif|svg|webp|avif)$/i;

class Budget {
  private readonly deadline = Date.now() + IMPORT_LIMITS.timeMs;
  bytes = 0;
  constructor(readonly allowHosts: readonly string[]) {}
  async fetch(url: string, accept?: readonly string[]): Promise<FetchedResource> {
    const left = this.deadline - Date.now();
    if (left <= 0) throw new FetchRefused(`url: the import took longer than ${IMPORT_LIMITS.timeMs} ms`);
    const maxBytes = Math.min(IMPORT_LIMITS.oneResource, IMPORT_LIMITS.bytes - this.bytes);
    const fetched = await safeFetch(url, { allowHosts: this.allowHosts, maxBytes, timeoutMs: left, accept });
    this.bytes += fetched.bytes.length;
    return fetched;
  }
  get expired() {
    return Date.now() >= this.deadline;
  }
}

/** turndown (with its DOM) and mammoth load with the first import that needs them, not at server start. */
async function turndown(): Promise<TurndownService> {
  const { default: TurndownService } = await import('turndown');
  const service = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-' });
  service.remove(['script', 'style', 'title', 'head', 'noscript']);
  return service;
}

const HTML_REFUSED: Record<Exclude<HtmlCheck, { ok: true }>['problem'], string> = {
  'too deep': `nests HTML elements more than ${MAX_HTML_DEPTH} levels deep; the limit is ${MAX_HTML_DEPTH}`,
  'too many elements': 'would build more HTML elements than it has characters (formatting tags left open, reopened in every block)',
  'too tangled': 'has HTML tags too misnested to convert',
  'too many attributes': `has an HTML element with more than ${MAX_HTML_ATTRIBUTES} attributes`,
};

/**
 * Refuses HTML that converting would walk too deep or too long (src/lib/html-depth.ts), before
 * turndown parses it. `what` names it in the message: its URL, its path in the archive.
 */
function assertConvertible(html: string, what: string): void {
  const checked = checkHtml(html);
  if (!checked.ok) throw new ValidationError(`url: ${what} ${HTML_REFUSED[checked.problem]}`, ['url']);
}

/** Converts HTML that `assertConvertible` took; what turndown cannot read (a <frameset> for a body) is refused too. */
function convert(converter: TurndownService, html: string, what: string): string {
  try {
    return converter.turndown(html);
  } catch {
    throw new ValidationError(`url: ${what} could not be converted from HTML`, ['url']);
  }
}

function markdownTitle(markdown: string): string | undefined {
  return /^#\s+(.+)$/m.exec(markdown)?.[1]?.trim();
}

function baseName(path: string): string {
  const name = decodeURIComponent(path.split(/[?#]/)[0]!.split('/').filter(Boolean).pop() ?? '');
  return name.replace(/\.(md|markdown|html?)$/i, '');
}

/** Gives imported pages their slugs up front, so links between them can name those slugs. */
class Slugs {
  private readonly taken = new Set<string>();
  assign(title: string): string {
    const slug = uniqueSlug(slugify(title), this.taken);
    this.taken.add(slug);
    return slug;
  }
}

/** Names files uniquely within one import, as the markdown will refer to them by name. */
class FileNames {
  private readonly taken = new Set<string>();
  assign(name: string): string {
    let candidate = name || 'file';
    for (let n = 2; this.taken.has(candidate); n++) candidate = candidate.replace(/(\.[^.]*)?$/, `-${n}$1`);
    this.taken.add(candidate);
    return candidate;
  }
}

/** A site: same-origin pages reached from the URL breadth-first, with their images. */
async function importWebsite(start: string, budget: Budget, single: boolean): Promise<ImportedContent> {
  const first = await budget.fetch(start, HTML);
  const origin = new URL(first.url).origin;
  const pages = new Map<string, string>();
  const order: string[] = [];
  const failed = new Set<string>();
  const queue = [first.url.split('#')[0]!];
  const seen = new Set(queue);
  const firstHtml = first.bytes.toString('utf8');
  assertConvertible(firstHtml, start);
  pages.set(queue[0]!, firstHtml);
  order.push(queue[0]!);
  while (queue.length > 0 && !single) {
    const url = queue.shift()!;
    if (!pages.has(url)) {
      if (pages.size >= IMPORT_LIMITS.pages || budget.expired) break;
      try {
        const fetched = await budget.fetch(url, HTML);
        const html = fetched.bytes.toString('utf8');
        // A page that cannot be converted is left out, as one that cannot be fetched.
        assertConvertible(html, url);
        pages.set(url, html);
        order.push(url);
      } catch {
        failed.add(url);
        continue;
      }
    }
    for (const href of anchorTargets(pages.get(url)!)) {
      let target: URL;
      try {
        target = new URL(href, url);
      } catch {
        continue;
      }
      target.hash = '';
      if (target.origin !== origin || IMAGE_EXT.test(target.pathname) || seen.has(target.href)) continue;
      seen.add(target.href);
      queue.push(target.href);
    }
  }

  const slugs = new Slugs();
  const names = new FileNames();
  const slugOf = new Map<string, string>();
  const titles = new Map<string, string>();
  for (const url of order) {
    const title = htmlTitle(pages.get(url)!) ?? (baseName(new URL(url).pathname) || 'Home');
    titles.set(url, title);
    slugOf.set(url, slugs.assign(title));
  }

  const files: NewFile[] = [];
  const fileOf = new Map<string, string | null>();
  let total = order.length + failed.size;
  const converter = await turndown();
  const result: NewPage[] = [];
  for (const url of order) {
    const markdown = convert(converter, pages.get(url)!, url);
    const images: string[] = [];
    for (const link of markdownLinks(markdown)) if (link.image) images.push(link.target);
    for (const src of images) {
      let absolute: string;
      try {
        absolute = new URL(src, url).href;
      } catch {
        continue;
      }
      if (fileOf.has(absolute)) continue;
      total++;
      if (files.length >= IMPORT_LIMITS.files || budget.expired) {
        fileOf.set(absolute, null);
        continue;
      }
      try {
        const fetched = await budget.fetch(absolute, ['image/']);
        const name = names.assign(decodeURIComponent(new URL(fetched.url).pathname.split('/').pop() ?? 'image'));
        files.push({ name, bytes: fetched.bytes, contentType: fetched.contentType });
        fileOf.set(absolute, name);
      } catch {
        fileOf.set(absolute, null);
      }
    }
    const body = rewriteMarkdownLinks(markdown, (target, image) => {
      let absolute: URL;
      try {
        absolute = new URL(target, url);
      } catch {
        return undefined;
      }
      if (image) return fileOf.get(absolute.href) ?? undefined;
      const hash = absolute.hash;
      absolute.hash = '';
      const slug = slugOf.get(absolute.href);
      if (slug !== undefined) return `/${slug}${hash}`;
      // A page that answered an error stays a broken link; one left out (not crawled) points at the site.
      if (failed.has(absolute.href) || absolute.origin !== origin) return undefined;
      return `${absolute.href}${hash}`;
    });
    result.push({ title: titles.get(url)!, markdown: body });
  }
  return { pages: result, files, total };
}

async function importMarkdown(url: string, budget: Budget): Promise<ImportedContent> {
  const fetched = await budget.fetch(url, MARKDOWN);
  const markdown = fetched.bytes.toString('utf8');
  const title = markdownTitle(markdown) ?? (baseName(new URL(fetched.url).pathname) || 'Imported page');
  return { pages: [{ title, markdown }], files: [], total: 1 };
}

/** Paths listed by a SUMMARY.md, in its order. */
function summaryOrder(summary: string): string[] {
  return markdownLinks(summary).map((link) => decodeURIComponent(link.target).replace(/^\.\//, ''));
}

function joinPath(folder: string, relative: string): string {
  const parts = relative.startsWith('/') ? [] : folder.split('/').filter(Boolean);
  for (const segment of relative.split('/')) {
    if (segment === '..') parts.pop();
    else if (segment && segment !== '.') parts.push(segment);
  }
  return parts.join('/');
}

async function importZip(url: string, budget: Budget): Promise<ImportedContent> {
  const fetched = await budget.fetch(url, ['application/zip', 'application/x-zip', 'application/octet-stream']);
  let entries: Record<string, Uint8Array>;
  try {
    let size = 0;
    entries = unzipSync(new Uint8Array(fetched.bytes), {
      filter: (file) => {
        size += file.originalSize;
        if (size > IMPORT_LIMITS.bytes) throw new FetchRefused(`url: the archive unpacks to more than ${IMPORT_LIMITS.bytes} bytes`);
        return !file.name.endsWith('/') && !/(^|\/)(__MACOSX|\.)/.test(file.name);
      },
    });
  } catch (error) {
    if (error instanceof FetchRefused) throw error;
    throw new FetchRefused('url: the resource is not a readable zip archive');
  }
  const documents = Object.keys(entries).filter((p) => /\.(md|markdown|html?)$/i.test(p) && !/(^|\/)SUMMARY\.md$/i.test(p));
  const summaryPath = Object.keys(entries).find((p) => /^([^/]+\/)?SUMMARY\.md$/i.test(p));
  let ordered = documents.sort();
  if (summaryPath) {
    const folder = summaryPath.includes('/') ? summaryPath.slice(0, summaryPath.lastIndexOf('/')) : '';
    const listed = summaryOrder(Buffer.from(entries[summaryPath]!).toString('utf8')).map((p) => joinPath(folder, p));
    const isDocument = new Set(documents);
    const isListed = new Set(listed);
    ordered = [...listed.filter((p) => isDocument.has(p)), ...documents.filter((p) => !isListed.has(p))];
  }
  ordered = ordered.slice(0, IMPORT_LIMITS.pages);
  const slugs = new Slugs();
  const names = new FileNames();
  const converter = await turndown();
  const texts = new Map<string, { title: string; markdown: string; slug: string }>();
  for (const path of ordered) {
    const raw = Buffer.from(entries[path]!).toString('utf8');
    const isHtml = /\.html?$/i.test(path);
    if (isHtml) assertConvertible(raw, path);
    const markdown = isHtml ? convert(converter, raw, path) : raw;
    const title = (isHtml ? htmlTitle(raw) : markdownTitle(raw)) ?? baseName(path);
    texts.set(path, { title, markdown, slug: slugs.assign(title) });
  }
  const images = Object.keys(entries).filter((p) => IMAGE_EXT.test(p)).slice(0, IMPORT_LIMITS.files);
  const fileName = new Map(images.map((p) => [p, names.assign(p.split('/').pop()!)]));
  const files: NewFile[] = images.map((p) => ({ name: fileName.get(p)!, bytes: Buffer.from(entries[p]!) }));
  const pages = ordered.map((path) => {
    const folder = path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '';
    const { title, markdown, slug: _slug } = texts.get(path)!;
    const body = rewriteMarkdownLinks(markdown, (target, image) => {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('#')) return undefined;
      const [file, hash] = target.split('#') as [string, string | undefined];
      const resolved = joinPath(folder, decodeURIComponent(file));
      if (image || IMAGE_EXT.test(resolved)) return fileName.get(resolved);
      const page = texts.get(resolved);
      return page ? `/${page.slug}${hash ? `#${hash}` : ''}` : undefined;
    });
    return { title, markdown: body };
  });
  return { pages, files, total: documents.length + Object.keys(entries).filter((p) => IMAGE_EXT.test(p)).length };
}

const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

/** A Word document: one page, its embedded images as files. */
async function importDocx(url: string, budget: Budget): Promise<ImportedContent> {
  const fetched = await budget.fetch(url, [DOCX, 'application/octet-stream']);
  const names = new FileNames();
  const files: NewFile[] = [];
  let html: string;
  try {
    const { default: mammoth } = await import('mammoth');
    const converted = await mammoth.convertToHtml(
      { buffer: fetched.bytes },
      {
        convertImage: mammoth.images.imgElement(async (image) => {
          const bytes = Buffer.from(await image.readAsBase64String(), 'base64');
          const name = names.assign(`image.${image.contentType.split('/')[1] ?? 'bin'}`);
          files.push({ name, bytes, contentType: image.contentType });
          return { src: name };
        }),
      },
    );
    html = converted.value;
  } catch {
    throw new FetchRefused('url: the resource is not a readable docx document');
  }
  assertConvertible(html, 'the document');
  const markdown = convert(await turndown(), html, 'the document');
  const title = markdownTitle(markdown) ?? (baseName(new URL(fetched.url).pathname).replace(/\.docx$/i, '') || 'Imported document');
  return { pages: [{ title, markdown }], files, total: 1 + files.length };
}

/** Fetches and converts the content at `url`; errors are the caller's (FetchRefused or ValidationError). */
export async function fetchImport(url: string, source: string, allowHosts: readonly string[]): Promise<ImportedContent> {
  const budget = new Budget(allowHosts);
  switch (source) {
    case 'website':
      return importWebsite(url, budget, false);
    case 'html':
      return importWebsite(url, budget, true);
    case 'markdown':
      return importMarkdown(url, budget);
    case 'zip':
      return importZip(url, budget);
    case 'docx':
      return importDocx(url, budget);
    default:
      throw new ValidationError(`source: ${JSON.stringify(source)} is not supported; supported sources are ${IMPORT_SOURCES.join(', ')}`, ['source']);
  }
}
