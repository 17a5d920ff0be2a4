import { encodeGlobalID } from '@pothos/plugin-relay';
import { defineMutation } from '../../../graphql/mutation';
import { OrganizationRef } from '../../organizations/graphql/refs';
import { deleteSpec, getSpecById, putSpec, updateSpecVisibility } from '../service';
import { OpenApiSpecRef } from './refs';
import { OpenApiVisibilityEnum } from './types';

defineMutation('openApiSpecPublish', {
  description: 'Creates the specification with this slug, or gives it a new source, and queues its processing. Takes the create role in the organization.',
  input: (t) => ({
    organizationId: t.globalID({ for: OrganizationRef, required: true, description: 'The organization.' }),
    slug: t.string({ required: true, description: 'Its name: lowercase words joined by dashes, at most 100 characters.' }),
    url: t.string({ description: 'A URL to fetch it from (through the server; internal addresses are refused). Give url or text.' }),
    text: t.string({ description: 'The document itself, JSON or YAML. Give url or text.' }),
  }),
  fields: { 'source.url': 'url', 'source.text': 'text', source: 'url' },
  payload: { spec: { type: OpenApiSpecRef, description: 'The specification, its processing pending.' }, created: { type: 'Boolean', description: 'Whether it was new.' } },
  resolve: async ({ organizationId, slug, url, text }, ctx) => {
    const source = { ...(url != null ? { url } : {}), ...(text != null ? { text } : {}) };
    const spec = await putSpec(ctx, organizationId.id, slug, { source });
    return { spec, created: spec.created };
  },
});

defineMutation('openApiSpecUpdate', {
  description: 'Makes a specification public or private. Takes the create role in the organization.',
  input: (t) => ({
    specId: t.globalID({ for: OpenApiSpecRef, required: true, description: 'The specification.' }),
    visibility: t.field({ type: OpenApiVisibilityEnum, required: true, description: 'Its new visibility.' }),
  }),
  payload: { spec: { type: OpenApiSpecRef, description: 'The specification after the change.' } },
  resolve: async ({ specId, visibility }, ctx) => ({ spec: await updateSpecVisibility(ctx, await getSpecById(ctx, specId.id), { visibility }) }),
});

defineMutation('openApiSpecDelete', {
  description: 'Deletes a specification with its versions. Takes the create role in the organization.',
  input: (t) => ({ specId: t.globalID({ for: OpenApiSpecRef, required: true, description: 'The specification.' }) }),
  payload: { deletedSpecId: { type: 'ID', description: 'Global id of the deleted specification.' } },
  gone: ({ specId }) => ({ deletedSpecId: encodeGlobalID('OpenAPISpec', specId.id) }),
  resolve: async ({ specId }, ctx) => {
    const spec = await getSpecById(ctx, specId.id);
    await deleteSpec(ctx, spec);
    return { deletedSpecId: encodeGlobalID('OpenAPISpec', spec.row.id) };
  },
});
