import SchemaBuilder from '@pothos/core';
import RelayPlugin from '@pothos/plugin-relay';
import RestIdsPlugin from './rest-ids';
import type { RequestContext } from '../context/request-context';

export const builder = new SchemaBuilder<{
  Context: RequestContext;
  DefaultFieldNullability: false;
  Scalars: {
    DateTime: { Input: Date; Output: Date };
    ID: { Input: string; Output: string };
    JSON: { Input: unknown; Output: unknown };
    Upload: { Input: File; Output: never };
  };
}>({
  plugins: [RestIdsPlugin, RelayPlugin],
  defaultFieldNullability: false,
  relay: {
    clientMutationId: 'optional',
    cursorType: 'String',
    nodeQueryOptions: {
      description: 'Fetches any object by its global ID. Null when it does not exist or the viewer may not see it.',
      args: { id: { description: 'Global ID of the object.' } },
    },
    nodesQueryOptions: {
      description: 'Fetches objects by global ID, in order; null for each one that does not exist or is not visible.',
      args: { ids: { description: 'Global IDs of the objects.' } },
    },
    nodeTypeOptions: { description: 'An object with a global ID, fetchable with `node` and `nodes`.' },
    pageInfoTypeOptions: { description: 'Where a page of a connection sits in the whole list.' },
    idFieldOptions: { description: 'Opaque global ID of the object.' },
    cursorFieldOptions: { description: 'Cursor of this edge, for `after` or `before`.' },
    pageInfoFieldOptions: { description: 'Where this page sits in the whole list.' },
    edgesFieldOptions: { description: 'The page of items, each with its cursor.' },
    nodeFieldOptions: { description: 'The item at the end of the edge.' },
    hasNextPageFieldOptions: { description: 'True when more items follow this page.' },
    hasPreviousPageFieldOptions: { description: 'True when items precede this page.' },
    startCursorFieldOptions: { description: 'Cursor of the first item of the page.' },
    endCursorFieldOptions: { description: 'Cursor of the last item of the page.' },
    firstArgOptions: { description: 'How many items to return from the start (at most 100, default 50).' },
    lastArgOptions: { description: 'How many items to return from the end (at most 100).' },
    afterArgOptions: { description: 'Return items after this cursor.' },
    beforeArgOptions: { description: 'Return items before this cursor.' },
    clientMutationIdInputOptions: { description: 'Echoed back unchanged in the payload, to match answers to requests.' },
    clientMutationIdFieldOptions: { description: 'The clientMutationId sent with the input.' },
    mutationInputArgOptions: { description: 'The input of the mutation.' },
  },
});

builder.scalarType('DateTime', {
  description: 'An instant in time, as an ISO 8601 string in UTC.',
  serialize: (value) => (value instanceof Date ? value.toISOString() : new Date(value as string).toISOString()),
  parseValue: (value) => {
    const date = new Date(value as string);
    if (typeof value !== 'string' || Number.isNaN(date.getTime())) throw new TypeError('DateTime must be an ISO 8601 string');
    return date;
  },
});

builder.queryType({ description: 'Entry points for reading.' });
builder.mutationType({ description: 'Entry points for writing: one mutation per business action.' });

/** The builder's type parameters, for helpers that take Pothos field builders. */
export type BuilderTypes = typeof builder extends PothosSchemaTypes.SchemaBuilder<infer T> ? T : never;

builder.scalarType('JSON', {
  description: 'A JSON value, as it is: used for the platform\'s JSON documents.',
  serialize: (value) => value,
  parseValue: (value) => value,
});

builder.scalarType('Upload', {
  description: 'A file sent with the request, as the GraphQL multipart request specification describes.',
  serialize: () => {
    throw new TypeError('Upload is an input type only');
  },
  // Yoga hands over its fetch implementation's File, which is not always the global class.
  parseValue: (value) => {
    const file = value as File | null;
    if (typeof file?.arrayBuffer !== 'function' || typeof file.name !== 'string') throw new TypeError('Upload must be a file part of a multipart request');
    return file;
  },
});
