import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { RequestContext } from '../../context/request-context';
import { DomainError, NotFoundError } from '../../domain/errors';
import type { TaskContext } from '../../jobs/job';
import { addContent, allPagesOf, fileBytes, getContent, pageBodies, type SpaceContent, type TreePage } from '../content/service';
import type { NewFile, NewPage } from '../../domain/content';
import { createSpace, getSpace } from '../spaces/service';
import { users } from '../../db/schema/users';
import { BATCH, libreTranslate, ProviderError, type TranslationProvider } from './provider';
import { claimRun, priorPages, recordCompleted, recordFailed, setResultSpace, type RunOutcome } from './queries';
import { markdownSegments, plainSegment, type Segment } from './segments';
import type { TranslatedPage, TranslationRow } from '../../db/schema/translations';

/** The queue name of a translation run. */
export const TRANSLATION_RUN_TASK = 'translation-run';

/** What the settings must hold before anything can be translated. */
export const NO_PROVIDER_MESSAGE =
  'No translation provider is configured on this server: set QUIRE_TRANSLATE_URL to a LibreTranslate-compatible server ' +
  '(and QUIRE_TRANSLATE_KEY when it needs an API key), then run the translation again';

/** A failure whose message is fit to show on the translation. */
class RunFailure extends Error {}

/** The engine the settings name, or null. */
export function providerFor(ctx: Pick<RequestContext, 'config'>): TranslationProvider | null {
  const settings = ctx.config.translate;
  return settings ? libreTranslate(settings, ctx.config.fetchAllowHosts ?? []) : null;
}

const sourceHash = (row: TranslationRow, text: TranslatedPage) =>
  createHash('sha256').update(JSON.stringify([row.sourceLanguage, row.language, text.title, text.description ?? '', text.markdown ?? ''])).digest('hex');

/** Sends the segments in batches bounded in count and size; puts each translation back. */
async function translateAll(provider: TranslationProvider, row: TranslationRow, segments: Segment[]): Promise<void> {
  for (let start = 0; start < segments.length; ) {
    let end = start;
    let chars = 0;
    while (end < segments.length && end - start < BATCH.texts && (end === start || chars + segments[end]!.text.length <= BATCH.chars)) chars += segments[end++]!.text.length;
    const batch = segments.slice(start, end);
    const out = await provider.translate(batch.map((s) => s.text), row.sourceLanguage, row.language);
    batch.forEach((segment, i) => segment.put(out[i]!));
    start = end;
  }
}

/** The result space: the one an earlier run made while it still exists, else a new one. */
async function resultSpace(ctx: RequestContext, row: TranslationRow, sourceTitle: string): Promise<string> {
  if (row.resultSpaceId) {
    const existing = await getSpace(ctx, row.resultSpaceId).catch((error: unknown) => {
      if (error instanceof NotFoundError) return null;
      throw error;
    });
    if (existing && !existing.deletedAt) return existing.id;
  }
  const title = `${sourceTitle} (${row.language})`;
  const created = await createSpace(ctx, row.organizationId, { title: title.length > 50 ? `${sourceTitle.slice(0, 50 - row.language.length - 4)}… (${row.language})` : title });
  await setResultSpace(ctx.db, row.id, created.id);
  return created.id;
}

async function translate(ctx: RequestContext, row: TranslationRow, provider: TranslationProvider, started: number): Promise<RunOutcome> {
  const source = await getContent(ctx, row.sourceSpaceId).catch((error: unknown) => {
    throw error instanceof NotFoundError ? new RunFailure('The source space is gone, or the member who ran the translation can no longer read it') : error;
  });
  const pages = allPagesOf(source.tree).filter((p) => p.data.type !== 'computed');
  const bodies = await pageBodies(ctx, pages);
  const prior = await priorPages(ctx.db, row.id);

  const texts = new Map<string, TranslatedPage>();
  const changed: RunOutcome['pages'] = [];
  const segments: Segment[] = [];
  const renders: (() => void)[] = [];
  for (const page of pages) {
    const original: TranslatedPage = { title: page.data.title, ...(page.data.description ? { description: page.data.description } : {}), ...(bodies.get(page.data.id) ? { markdown: bodies.get(page.data.id)! } : {}) };
    const hash = sourceHash(row, original);
    const before = prior.get(page.data.id);
    if (before?.sourceHash === hash) {
      texts.set(page.data.id, before.translated);
      continue;
    }
    const translated: TranslatedPage = { ...original };
    const push = (segment: Segment | null) => segment && segments.push(segment);
    push(plainSegment(original.title, (v) => (translated.title = v)));
    if (original.description) push(plainSegment(original.description, (v) => (translated.description = v)));
    if (original.markdown) {
      const body = markdownSegments(original.markdown);
      body.segments.forEach(push);
      renders.push(() => (translated.markdown = body.render()));
    }
    texts.set(page.data.id, translated);
    changed.push({ sourcePageId: page.data.id, sourceHash: hash, translated });
  }

  await translateAll(provider, row, segments);
  for (const render of renders) render();

  const build = (list: readonly TreePage[]): NewPage[] =>
    list
      .filter((p) => p.data.type !== 'computed')
      .map((p) => {
        const text = texts.get(p.data.id)!;
        const type = p.data.type as 'document' | 'group' | 'link';
        return {
          type,
          title: text.title,
          ...(text.description ? { description: text.description } : {}),
          ...(text.markdown ? { markdown: text.markdown } : {}),
          // Same paths as the source: relative links between pages keep working in the result.
          ...(p.data.slug ? { slug: p.data.slug } : {}),
          ...(p.data.emoji ? { emoji: p.data.emoji } : {}),
          ...(p.data.hidden ? { hidden: true } : {}),
          ...(type === 'link' ? { href: linkHref(source, p) } : {}),
          children: build(p.children),
        };
      });

  const spaceId = await resultSpace(ctx, row, source.space.title);
  const written = await addContent(ctx, spaceId, { pages: build(source.tree.pages), files: await filesOf(ctx, source) }, 'replace');
  return { resultRevisionId: written.tree.revision.id, pages: changed, words: segments.reduce((n, s) => n + s.words, 0), durationMs: Math.round(performance.now() - started) };
}

/**
 * A link page's target in the result: a URL as it is; a page of the source by its path, which the
 * result's page keeps (the result's pages get new ids); a file by its name, copied along.
 */
function linkHref(source: SpaceContent, page: TreePage): string {
  const target = page.data.target;
  if (!target) return '';
  if (target.kind === 'url') return target.url;
  if (target.kind === 'page') return source.tree.byId.get(target.page)?.path ?? '';
  return source.tree.filesById.get(target.file)?.data.name ?? '';
}

/** The source's files, bytes and all, so pages that show or link them by name find them in the result. */
async function filesOf(ctx: RequestContext, source: SpaceContent): Promise<NewFile[]> {
  const files: NewFile[] = [];
  for (const file of source.tree.files) {
    const read = await fileBytes(ctx, source, file.data.id);
    if (read) files.push({ name: read.file.name, bytes: read.bytes, contentType: read.file.contentType });
  }
  return files;
}

/** Why a run failed, as the translation shows it: our own messages; a generic line for the rest. */
function reasonOf(error: unknown): string {
  if (error instanceof RunFailure || error instanceof ProviderError) return error.message;
  if (error instanceof DomainError) return `The run was refused: ${error.message}`;
  return 'The run failed on an internal error; see the server log';
}

/**
 * One run of a translation (the `translation-run` task): acting as the member who asked for it,
 * translates the source pages whose text changed since they were last translated, and writes the
 * whole translated tree to the result space as one new revision. A failure is recorded on the
 * translation, with its reason, rather than thrown: a retry would fail the same way.
 */
export async function performTranslationRun(task: Pick<TaskContext, 'db' | 'now' | 'log' | 'contextFor'>, translationId: string): Promise<object> {
  const row = await claimRun(task.db, translationId, task.now());
  if (!row) return { skipped: 'no run queued' };
  const started = performance.now();
  try {
    const [user] = row.runBy ? await task.db.select().from(users).where(eq(users.id, row.runBy)) : [];
    if (!user) throw new RunFailure('The member who ran the translation no longer exists');
    const ctx = task.contextFor({ user });
    const provider = providerFor(ctx);
    if (!provider) throw new RunFailure(NO_PROVIDER_MESSAGE);
    const outcome = await translate(ctx, row, provider, started);
    await recordCompleted(task.db, row.id, outcome, task.now());
    return { translated: outcome.pages.length, words: outcome.words };
  } catch (error) {
    const reason = reasonOf(error);
    if (!(error instanceof RunFailure || error instanceof ProviderError || error instanceof DomainError)) task.log(`translation ${row.id} failed: ${(error as Error).stack ?? String(error)}`);
    await recordFailed(task.db, row.id, reason, task.now());
    return { failed: reason };
  }
}
