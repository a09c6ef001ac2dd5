import { ENTITY_TYPE_DEFINITIONS } from './entity-types';
import { objectSchema, SchemaObject } from './extra-data';

/** The OpenAPI schema of one entity type's `extra_data`, under its component name. */
export interface ExtraDataDocument {
  name: string;
  suffix: string;
  schema: SchemaObject;
}

/**
 * The `extra_data` of each entity type as OpenAPI schemas, derived from the
 * same rules that validate writes: each key's schema is its rule's own, the
 * required keys are the type's. Other keys are kept as sent, so every schema
 * allows additional properties.
 */
export const EXTRA_DATA_DOCUMENTS: readonly ExtraDataDocument[] = ENTITY_TYPE_DEFINITIONS.map(
  (definition) => ({
    name: definition.extraDataSchemaName,
    suffix: definition.suffix,
    schema: {
      ...(definition.extraData.description
        ? { description: definition.extraData.description }
        : {}),
      ...objectSchema(definition.extraData.fields, definition.extraData.required),
    },
  }),
);
