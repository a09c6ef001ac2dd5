import { getMetadataStorage } from 'class-validator';

type Metadata = { propertyName: string };
type Grouped = Record<string, Metadata[]>;

/** The part of class-validator's metadata storage this file wraps. */
interface Storage {
  getTargetValidationMetadatas(
    target: object,
    schema: string,
    always: boolean,
    strictGroups: boolean,
    groups?: string[],
  ): Metadata[];
  groupByPropertyName(metadata: Metadata[]): Grouped;
  addValidationMetadata(metadata: unknown): void;
  addValidationSchema(schema: unknown): void;
}

const wrapped = new WeakSet<object>();

/**
 * class-validator looks up the rules of every object it validates afresh:
 * it scans every class it knows (for rules a class inherits) and groups the
 * rules by property, for each nested object of each body. An order's body is
 * some twenty such objects (its lines, their options, the delivery data)
 * over some three hundred classes. The answer depends only on the class and
 * the validation options, and the rules are all declared when the classes
 * load; this keeps each answer until a rule is added, which drops them all.
 * The answers are not changed by their readers (class-validator only reads
 * them), so one is shared.
 */
export function keepValidationMetadata(): void {
  const storage = getMetadataStorage() as unknown as Storage;
  if (wrapped.has(storage)) return;
  wrapped.add(storage);
  const find = storage.getTargetValidationMetadatas.bind(storage);
  const group = storage.groupByPropertyName.bind(storage);
  const addMetadata = storage.addValidationMetadata.bind(storage);
  const addSchema = storage.addValidationSchema.bind(storage);
  let found = new Map<unknown, Map<string, Metadata[]>>();
  let grouped = new WeakMap<Metadata[], Grouped>();
  const forget = () => {
    found = new Map();
    grouped = new WeakMap();
  };
  storage.getTargetValidationMetadatas = (target, schema, always, strictGroups, groups) => {
    const key = `${schema}\u0000${always}\u0000${strictGroups}\u0000${(groups ?? []).join('\u0000')}`;
    let byOptions = found.get(target);
    if (!byOptions) found.set(target, (byOptions = new Map()));
    let metadata = byOptions.get(key);
    if (!metadata)
      byOptions.set(key, (metadata = find(target, schema, always, strictGroups, groups)));
    return metadata;
  };
  storage.groupByPropertyName = (metadata) => {
    let byProperty = grouped.get(metadata);
    if (!byProperty) grouped.set(metadata, (byProperty = group(metadata)));
    return byProperty;
  };
  storage.addValidationMetadata = (metadata) => {
    forget();
    addMetadata(metadata);
  };
  storage.addValidationSchema = (schema) => {
    forget();
    addSchema(schema);
  };
}
