import { builder } from '../../../graphql/builder';
import { orNull } from '../../../graphql/errors';
import { SpaceRef } from '../../spaces/graphql/refs';
import { computeDocument, getDocumentById, getEmbed, getReusableContent, type Embed } from '../service';
import { RevisionRef } from './refs';

/*
 * Twins of the renderer's document reads: `POST /v1/spaces/{id}/content/computed/document`,
 * `GET /v1/spaces/{id}/documents/{id}`, `GET /v1/spaces/{id}/embed` and the reusable contents of
 * a revision.
 */

const EmbedRef = builder.objectRef<Embed>('Embed').implement({
  description: "What an embed block shows for a URL: Quire answers the platform's `link` form from the URL alone, without fetching it.",
  fields: (t) => ({
    type: t.exposeString('type', { description: 'How to show it: always `link` (a card linking to the URL).' }),
    title: t.exposeString('title', { description: 'The URL as a reader reads it: host and path, without the scheme.' }),
    site: t.exposeString('site', { description: 'The host the URL points at, without `www.`.' }),
  }),
});

builder.objectFields(SpaceRef, (t) => ({
  computedDocument: t.field({
    type: 'JSON',
    description:
      "A document computed from a source (the platform's ComputedContentSourceDocument), as a JSON document: from an OpenAPI specification of the organization, its overview (`doc: info`), the operations of one tag (`doc: operations`, `page`: the tag) or its models. Other sources are refused (Quire does not compute them). Needs the right to read the space's content.",
    args: {
      source: t.arg({ type: 'JSON', required: true, description: 'The source, as `{ type: "builtin:openapi", props: { doc, page }, dependencies: { spec: { ref: { kind: "openapi", spec } } } }`.' }),
      seed: t.arg.string({ required: true, description: "The platform's seed for generated ids; Quire's documents have none, so it changes nothing." }),
    },
    resolve: (space, { source, seed }, ctx) => computeDocument(ctx, space.id, { source: source as never, seed }),
  }),
  document: t.field({
    type: 'JSON',
    nullable: true,
    description: "A document of the space by its id. Quire's pages hold their bodies themselves, with no document id of their own: always null.",
    args: { documentId: t.arg.string({ required: true, description: 'The id of the document.' }) },
    resolve: (space, { documentId }, ctx) => orNull(getDocumentById(ctx, space.id, documentId)),
  }),
  embed: t.field({
    type: EmbedRef,
    description: 'What an embed block of this space shows for a URL. Anyone who can see the space.',
    args: { url: t.arg.string({ required: true, description: 'The absolute http or https URL to embed.' }) },
    resolve: (space, { url }, ctx) => getEmbed(ctx, space.id, { url }),
  }),
}));

/** The platform's RevisionReusableContent. Quire has none, so no value of it is ever answered. */
const ReusableContentRef = builder.objectRef<{ id: string; title: string; document: Record<string, unknown> | null }>('ReusableContent').implement({
  description: "A block of content written once and reused in pages (the platform's reusable contents). Quire has none: `Revision.reusableContent` is always null.",
  fields: (t) => ({
    restId: t.exposeString('id', { description: 'Its id in the REST API.' }),
    title: t.exposeString('title', { description: 'Its title.' }),
    document: t.field({ type: 'JSON', nullable: true, description: 'Its content, as a JSON document.', resolve: (r) => r.document }),
  }),
});

builder.objectField(RevisionRef, 'reusableContent', (t) =>
  t.field({
    type: ReusableContentRef,
    nullable: true,
    description: 'A reusable content of the revision, by id. Quire has no reusable contents: always null (after the same checks as the revision).',
    args: { reusableContentId: t.arg.string({ required: true, description: 'The id of the reusable content.' }) },
    resolve: (r, { reusableContentId }, ctx) => orNull(getReusableContent(ctx, r.space.id, r.tree.revision.id, reusableContentId)),
  }),
);
