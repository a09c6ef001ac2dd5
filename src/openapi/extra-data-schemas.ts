/**
 * What the OpenAPI document needs of the entity types' `extra_data`: one
 * schema per type under its component name. The entity module derives them
 * from the rules that validate writes; the composition root hands them in,
 * since the kernel imports no module.
 */
export interface ExtraDataSchemaEntry {
  /** Component name, such as `BusinessExtraData`. */
  name: string;
  /** The entity type's name after `{ns}_`. */
  suffix: string;
  schema: Record<string, unknown>;
}

/** The parts of the document that modules contribute. */
export interface OpenApiParts {
  extraData: readonly ExtraDataSchemaEntry[];
}
