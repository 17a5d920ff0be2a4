import type { RequestContext } from '../../../context/request-context';
import { ValidationError } from '../../../domain/errors';
import { markdownProblem } from '../../../domain/markdown-input';
import { FetchRefused } from '../../../lib/safe-fetch';
import type { RevisionPointer } from '../commit';
import { IMPORT_SOURCES, fetchImport } from '../import';
import { TEMPLATES } from '../templates';
import { addContent, editableSpace } from './edit';

/*
 * Content from elsewhere: an import from a URL, or a built-in template, added as one revision.
 */

/** Imports the content at a URL into a space (or, with a pointer, a change request), in one revision. */
export async function importContent(ctx: RequestContext, spaceId: string, input: unknown, pointer?: RevisionPointer): Promise<{ revision: string; importedResources: number; totalResources: number }> {
  await editableSpace(ctx, spaceId);
  const body = (typeof input === 'object' && input !== null ? input : {}) as { url?: unknown; source?: unknown };
  // An import request is a URL and a source; anything this large is not one.
  if (JSON.stringify(body).length > 16 * 1024) throw new ValidationError('request body: an import request is larger than 16 KB; send only url and source');
  if (typeof body.url !== 'string' || !URL.canParse(body.url)) throw new ValidationError('url: must be an absolute http or https URL', ['url']);
  if (typeof body.source !== 'string') throw new ValidationError(`source: required, one of ${IMPORT_SOURCES.join(', ')}`, ['source']);
  let imported;
  try {
    imported = await fetchImport(body.url, body.source, ctx.config.fetchAllowHosts ?? []);
  } catch (error) {
    if (error instanceof FetchRefused) throw new ValidationError(error.message, ['url']);
    throw error;
  }
  if (imported.pages.length === 0) throw new ValidationError(`url: nothing to import was found at ${body.url}`, ['url']);
  for (const page of imported.pages) {
    const problem = page.markdown === undefined ? null : markdownProblem(page.markdown, { links: false });
    if (problem) throw new ValidationError(`url: the page "${page.title}" cannot be imported: ${problem}`, ['url']);
  }
  const written = await addContent(ctx, spaceId, imported, 'append', pointer);
  return { revision: written.tree.revision.id, importedResources: written.pageIds.length + written.fileIds.length, totalResources: imported.total };
}

/** Adds the pages of a built-in template to a space. */
export async function applyTemplate(ctx: RequestContext, spaceId: string, input: unknown): Promise<{ revision: string }> {
  const id = (input as { id?: unknown } | null)?.id;
  const template = typeof id === 'string' && Object.hasOwn(TEMPLATES, id) ? TEMPLATES[id] : undefined;
  if (!template) throw new ValidationError(`id: unknown template; the templates are ${Object.keys(TEMPLATES).join(', ')}`, ['id']);
  const written = await addContent(ctx, spaceId, { pages: template.pages }, 'append');
  return { revision: written.tree.revision.id };
}
