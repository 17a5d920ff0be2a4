import { builder } from '../../../graphql/builder';
import { enumValues } from '../../../graphql/enums';
import { defineMutation } from '../../../graphql/mutation';
import { ChangeRequestRef } from '../../change-requests/graphql/refs';
import { SpaceRef } from '../../spaces/graphql/refs';
import { applyTemplate, getRevisionContent, IMPORT_SOURCES, importContent, TEMPLATES } from '../service';
import { EDIT_RULES, editTarget } from './mutations';
import { RevisionRef } from './refs';

/*
 * Content from elsewhere, as REST's content/import and content/template add it.
 */

const SOURCE_DESCRIPTIONS: Record<(typeof IMPORT_SOURCES)[number], string> = {
  website: 'A website: the page at the URL and the pages of the same site it links to.',
  html: 'One HTML page.',
  markdown: 'One markdown file.',
  zip: 'A zip archive of markdown files, ordered by its SUMMARY.md when it has one.',
  docx: 'A Word document.',
};

const ImportSourceEnum = builder.enumType('ContentImportSource', {
  description: 'What the URL of an import holds.',
  values: enumValues(IMPORT_SOURCES, (s) => SOURCE_DESCRIPTIONS[s]),
});

const TemplateEnum = builder.enumType('ContentTemplate', {
  description: 'The built-in templates: sets of starter pages.',
  values: enumValues(Object.keys(TEMPLATES), (id) => `${TEMPLATES[id].title}.`),
});

defineMutation('contentImport', {
  description: `Imports the content at a URL, appending its pages and files to the space (or to a change request of it) in one revision. The import runs within the request, within fixed bounds of size and time; only hosts the server may fetch from are reached. ${EDIT_RULES}`,
  input: (t) => ({
    spaceId: t.globalID({ for: SpaceRef, required: true, description: 'The space to import into.' }),
    changeRequestId: t.globalID({ for: ChangeRequestRef, description: "Import into this change request's content instead of the space's; a draft or open change request of the space." }),
    url: t.string({ required: true, description: 'Absolute http or https address of what to import.' }),
    source: t.field({ type: ImportSourceEnum, required: true, description: 'What the URL holds.' }),
  }),
  payload: {
    revision: { type: RevisionRef, description: 'The revision the import wrote.' },
    importedResources: { type: 'Int', description: 'How many pages and files were added.' },
    totalResources: { type: 'Int', description: 'How many pages and files were found at the URL.' },
  },
  resolve: async ({ spaceId, changeRequestId, url, source }, ctx) => {
    const pointer = await editTarget(ctx, spaceId.id, changeRequestId);
    const result = await importContent(ctx, spaceId.id, { url, source }, pointer);
    return { revision: await getRevisionContent(ctx, result.revision), importedResources: result.importedResources, totalResources: result.totalResources };
  },
});

defineMutation('contentTemplateApply', {
  description: `Appends the pages of a built-in template to the space's content, in one revision. ${EDIT_RULES}`,
  input: (t) => ({
    spaceId: t.globalID({ for: SpaceRef, required: true, description: 'The space.' }),
    template: t.field({ type: TemplateEnum, required: true, description: 'The template to add.' }),
  }),
  fields: { id: 'template' },
  payload: { revision: { type: RevisionRef, description: "The revision with the template's pages, now the current one." } },
  resolve: async ({ spaceId, template }, ctx) => {
    const { revision } = await applyTemplate(ctx, spaceId.id, { id: template });
    return { revision: await getRevisionContent(ctx, revision) };
  },
});
