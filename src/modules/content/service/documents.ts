import { z } from 'zod';
import type { RequestContext } from '../../../context/request-context';
import { NotFoundError, ValidationError } from '../../../domain/errors';
import { bodyObject, parseInput } from '../../../domain/validate';
import { computedSpecPages, computedSpecKey } from '../../openapi/service';
import { currentTree } from '../commit';
import { contentReadableSpace, getSpaceRevision, markdownDocument } from './read';

/*
 * Documents the renderer reads by reference rather than through a page: computed documents (an
 * OpenAPI operation's page, say), documents by id, and reusable contents. Quire's pages hold their
 * body themselves (no separate document with an id of its own) and Quire has no reusable contents,
 * so those two answer the platform's 404 once the space (and revision) checks pass.
 */

const jsonBytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value));

const schemaParam = z.object({ schema: z.enum(['current', 'next'], { error: 'schema must be current or next' }).optional() });
export type DocumentSchemaInput = z.input<typeof schemaParam>;

/** The spec's ComputedContentSourceDocument, read loosely enough to say which sources Quire does not compute. */
const computedDocumentSchema = z
  .object(
    {
      source: z.looseObject({ type: z.string({ error: 'source.type is required' }).min(1, 'source.type must not be empty') }, { error: 'source must be an object' }),
      seed: z.string({ error: 'seed is required' }).max(200, 'seed must be at most 200 characters'),
    },
    bodyObject,
  )
  .strict();
export type ComputedDocumentInput = z.input<typeof computedDocumentSchema>;

/** The spec's ComputedContentSourceDocumentOpenAPI: a spec by slug, and which of its documents. */
const openApiDocumentSource = z.object({
  type: z.literal('builtin:openapi'),
  props: z.union(
    [
      z.object({ doc: z.literal('models') }),
      z.object({ doc: z.enum(['operations', 'info']), page: z.string({ error: 'source.props.page is required' }).min(1, 'source.props.page must not be empty') }),
    ],
    { error: 'source.props must be { doc: "models" } or { doc: "operations" | "info", page }' },
  ),
  dependencies: z.object(
    { spec: z.object({ ref: z.object({ kind: z.literal('openapi'), spec: z.string().min(1, 'source.dependencies.spec.ref.spec must name a specification') }) }, { error: 'source.dependencies.spec must be { ref: { kind: "openapi", spec } }' }) },
    { error: 'source.dependencies must be { spec: { ref: { kind: "openapi", spec } } }' },
  ),
});

/**
 * A computed document of a space whose content the viewer may read, from the organization's
 * OpenAPI specification as it is now: `info` is the overview of the reference, `operations` the
 * page of one tag (`props.page` names it), `models` the list of models. Other sources (translations,
 * integrations) are not computed by Quire: a 400 saying so. `seed` only makes the platform's ids
 * repeatable; Quire's documents have no generated ids.
 */
export async function computeDocument(ctx: RequestContext, spaceId: string, input: ComputedDocumentInput, query: DocumentSchemaInput = {}): Promise<Record<string, unknown>> {
  const space = await contentReadableSpace(ctx, spaceId);
  parseInput(schemaParam, query);
  const { source } = parseInput(computedDocumentSchema, input);
  if (source.type !== 'builtin:openapi') {
    throw new ValidationError(`source.type: Quire computes documents from builtin:openapi sources only, not ${source.type}`, ['source', 'type']);
  }
  const { props, dependencies } = parseInput(openApiDocumentSource, source, ['source']);
  const slug = dependencies.spec.ref.spec;
  const models = props.doc === 'models';
  const found = (await computedSpecPages(ctx, space.organizationId, [{ slug, models }])).get(computedSpecKey(slug, models))!;
  let markdown: string;
  if (found.state === 'unavailable') markdown = found.markdown;
  else if (props.doc === 'info') markdown = found.pages.overview;
  else {
    const key = props.doc === 'models' ? 'models' : `tag:${props.page}`;
    const page = found.pages.pages.find((p) => p.key === key);
    if (!page) throw new ValidationError(`source.props.page: the specification ${slug} has no operations tagged ${JSON.stringify(props.doc === 'models' ? 'models' : props.page)}`, ['source', 'props', 'page']);
    markdown = page.markdown;
  }
  const document = markdownDocument(ctx, { space, tree: await currentTree(ctx, space) }, markdown);
  ctx.bounds.admit(jsonBytes(document));
  ctx.bounds.check();
  return document;
}

/** A document by id in a space whose content the viewer may read: Quire's documents have no ids of their own, so none is found. */
export async function getDocumentById(ctx: RequestContext, spaceId: string, _documentId: string, query: DocumentSchemaInput = {}): Promise<never> {
  await contentReadableSpace(ctx, spaceId);
  parseInput(schemaParam, query);
  throw new NotFoundError('Document');
}

/** A reusable content of a revision the viewer may read (or its document): Quire has none, so any id is missing. */
export async function getReusableContent(ctx: RequestContext, spaceId: string, revisionId: string, _reusableContentId: string): Promise<never> {
  await getSpaceRevision(ctx, spaceId, revisionId, { computed: 'false' });
  throw new NotFoundError('Reusable content');
}
