import type { InputFieldMap, InputShapeFromFields } from '@pothos/core';
import type { RequestContext } from '../context/request-context';
import { builder, type BuilderTypes } from './builder';
import { DomainError } from '../domain/errors';
import { runMutation, userErrorsField, type FieldMap } from './errors';

const isNotFound = (error: unknown) => error instanceof DomainError && error.code === 'NOT_FOUND';

/** One field of a mutation payload: nullable, since it is null whenever `userErrors` is not empty. */
export interface PayloadField {
  // Any output type a payload can carry: an object ref, a list of one, or a scalar name.
  type: unknown;
  description: string;
}

export interface MutationDefinition<Fields extends InputFieldMap, Result extends Record<string, unknown>> {
  /** What the mutation does, who may call it, and what it refuses. */
  description: string;
  /** Description of the input type; `Input of <name>.` when absent. */
  inputDescription?: string;
  input: (t: PothosSchemaTypes.InputFieldBuilder<BuilderTypes, 'InputObject'>) => Fields;
  /** Where the service's input fields sit in this input, when the names differ (see `FieldMap`). */
  fields?: FieldMap;
  /** The payload fields besides `userErrors` and `clientMutationId`. */
  payload: { [K in keyof Result]: PayloadField };
  resolve: (input: InputShapeFromFields<Fields>, ctx: RequestContext) => Promise<Result>;
  /**
   * For a delete: the payload when its target (or a parent of it) is missing or hidden from the
   * caller. The target already gone is what was asked, so the mutation succeeds, as the REST
   * delete answers 204 (the API's rule 5); without it such a call is a NOT_FOUND error.
   */
  gone?: (input: InputShapeFromFields<Fields>) => Partial<Result>;
}

/**
 * A Relay mutation (`name(input: NameInput!): NamePayload!`) over one service call. The payload
 * holds the fields `payload` lists, each null when the input was refused, and `userErrors`.
 */
export function defineMutation<Fields extends InputFieldMap, Result extends Record<string, unknown>>(name: string, definition: MutationDefinition<Fields, Result>): void {
  builder.relayMutationField(
    name,
    { description: definition.inputDescription ?? `Input of ${name}.`, inputFields: definition.input },
    {
      description: definition.gone ? `${definition.description} When the target is missing or hidden from the caller, it succeeds and changes nothing.` : definition.description,
      resolve: (_root, args, ctx) => {
        // clientMutationId belongs to the Relay envelope, not to the service's input.
        const { clientMutationId: _, ...input } = (args as unknown as { input: InputShapeFromFields<Fields> & { clientMutationId?: unknown } }).input;
        const typed = input as InputShapeFromFields<Fields>;
        const { gone } = definition;
        const run = gone ? () => definition.resolve(typed, ctx).catch((error: unknown) => (isNotFound(error) ? (gone(typed) as Result) : Promise.reject(error))) : () => definition.resolve(typed, ctx);
        return runMutation(run, definition.fields) as never;
      },
    },
    {
      description: `Result of ${name}.`,
      outputFields: (t) => {
        const fields: Record<string, unknown> = {};
        for (const [key, field] of Object.entries(definition.payload) as [string, PayloadField][]) {
          // Pothos types each field from its `type`; the payload's shape is only known to the caller here.
          fields[key] = (t as unknown as PothosSchemaTypes.ObjectFieldBuilder<BuilderTypes, Record<string, unknown>>).field({
            type: field.type as never,
            nullable: true,
            description: field.description,
            resolve: (p: Record<string, unknown>) => (p[key] ?? null) as never,
          });
        }
        return { ...(fields as Record<string, never>), userErrors: userErrorsField(t) };
      },
    },
  );
}
