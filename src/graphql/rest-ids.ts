import SchemaBuilder, { BasePlugin, createInputValueMapper, mapInputFields, type PothosInputFieldConfig, type PothosOutputFieldConfig, type SchemaTypes } from '@pothos/core';
import { asGlobalId, GLOBAL_ID_ONLY } from './ids';

/*
 * Every `globalID` argument and input field (`t.arg.globalID({ for })`, `t.globalID({ for })`)
 * also takes the REST id of its type, as /v1 and `organization(id:)` do. Its mapper runs before
 * Pothos' relay plugin's: it turns a REST id into that type's global ID (and refuses a global ID of
 * another type with a clear message), then the relay plugin decodes it as it always has.
 */

interface IdMapping {
  name: string;
  typenames: string[];
}

const PLUGIN = 'restIds';

export class RestIdsPlugin<Types extends SchemaTypes> extends BasePlugin<Types> {
  private readonly mappingCache = new Map();

  /** The description says which ids the field takes, since the ID type cannot. */
  override onInputFieldConfig(fieldConfig: PothosInputFieldConfig<Types>): PothosInputFieldConfig<Types> {
    const forTypes = fieldConfig.extensions?.relayGlobalIDFor as { typename: string }[] | null | undefined;
    if (!fieldConfig.extensions?.isRelayGlobalID || !forTypes?.length) return fieldConfig;
    const restToo = forTypes.length === 1 && !GLOBAL_ID_ONLY.has(forTypes[0].typename);
    const note = restToo ? 'Takes its global ID or its REST id.' : 'Takes a global ID only: a REST id would not say which object it names.';
    return { ...fieldConfig, description: fieldConfig.description ? `${fieldConfig.description} ${note}` : note };
  }

  override onOutputFieldConfig(fieldConfig: PothosOutputFieldConfig<Types>): PothosOutputFieldConfig<Types> {
    const mappings = mapInputFields(
      fieldConfig.args,
      this.buildCache,
      (inputField): IdMapping | null => {
        const forTypes = inputField.extensions?.relayGlobalIDFor as { typename: string }[] | null | undefined;
        if (!inputField.extensions?.isRelayGlobalID || !forTypes?.length) return null;
        return { name: inputField.name, typenames: forTypes.map((t) => t.typename) };
      },
      this.mappingCache,
    );
    if (!mappings) return fieldConfig;
    const mapper = createInputValueMapper(mappings, (value, mapping, _ctx, info: { schema: Parameters<typeof asGlobalId>[2] }) =>
      asGlobalId(String(value), mapping.value!.typenames, info.schema, [mapping.value!.name]),
    );
    // First of all mappers, whatever order the plugins' hooks run in: the relay plugin's expects global IDs.
    return { ...fieldConfig, argMappers: [(args, ctx, info) => mapper(args, undefined, ctx, info), ...(fieldConfig.argMappers ?? [])] };
  }
}

SchemaBuilder.registerPlugin(PLUGIN, RestIdsPlugin);

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace -- Pothos registers plugins by augmenting its namespace
  export namespace PothosSchemaTypes {
    export interface Plugins<Types extends SchemaTypes> {
      restIds: RestIdsPlugin<Types>;
    }
  }
}

export default PLUGIN;
