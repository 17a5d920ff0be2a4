import { builder } from '../../../graphql/builder';
import { enumValues } from '../../../graphql/enums';
import { PAGE_TYPES } from '../input';
import type { PageEntry, SemanticChange, SpaceContent, SpaceHit, TreeFile } from '../service';

/** A revision, with the space it belongs to: what its fields need to resolve. */
export type RevisionShape = SpaceContent;
/** A page of a revision, with its place in the tree. */
export type PageShape = SpaceContent & { entry: PageEntry };
export type FileShape = SpaceContent & { file: TreeFile };

export const RevisionRef = builder.objectRef<RevisionShape>('Revision');
export const PageRef = builder.objectRef<PageShape>('Page');
export const FileRef = builder.objectRef<FileShape>('File');
/** A semantic change, with the content it leads to (a changed file is read from it). */
export type RevisionChangeShape = { content: SpaceContent; change: SemanticChange };
export const RevisionChangeRef = builder.objectRef<RevisionChangeShape>('RevisionChange');

/** A space that matched a search, and a page of them: also what a published site's search answers. */
export const SearchSpaceHitRef = builder.objectRef<SpaceHit>('SearchSpaceHit');
export const SearchSpaceHitConnection = builder.connectionObject(
  { type: SearchSpaceHitRef, name: 'SearchSpaceHitConnection', description: 'A page of search results: spaces, best first.' },
  { name: 'SearchSpaceHitEdge', description: 'A matching space, with its cursor.' },
);

/** Pages and files are named by revision and id: the same page in a later revision is another node. */
export const contentNodeId = (revisionId: string, id: string) => `${revisionId}/${id}`;

export function splitContentNodeId(id: string): { revisionId: string; id: string } {
  const [revisionId, itemId] = id.split('/');
  return { revisionId: revisionId ?? '', id: itemId ?? '' };
}

const PAGE_TYPE_DESCRIPTIONS = {
  document: 'A page of content, written in markdown; it may hold other pages.',
  group: 'A heading of the table of contents that holds pages; top level only.',
  link: 'An entry of the table of contents that points at a URL or another page.',
  computed: 'A page generated from another source, such as an OpenAPI specification.',
} as const;

export const PageTypeEnum = builder.enumType('PageType', {
  description: 'What a page is.',
  values: enumValues(PAGE_TYPES, (type) => PAGE_TYPE_DESCRIPTIONS[type]),
});

/** The page types an editor creates; a computed one names its source. */
export const NewPageTypeEnum = builder.enumType('NewPageType', {
  description: 'What a new page is.',
  values: enumValues(['document', 'group', 'link', 'computed'] as const, (type) => PAGE_TYPE_DESCRIPTIONS[type]),
});
