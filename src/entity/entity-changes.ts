import { EntityRecord } from './entity-record.entity';
import { EntityValues } from './entity-sql';

/** JSON with object keys sorted, so that two equal values give the same text. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, inner]) => inner !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, inner]) => `${JSON.stringify(key)}:${canonical(inner)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/**
 * extra_data without `key` at the top level and, for `available`, without
 * it on each option of each option group (an option can be sold out too).
 */
function without(extraData: Record<string, unknown>, key: string): unknown {
  const rest: Record<string, unknown> = { ...extraData };
  delete rest[key];
  if (key === 'available' && Array.isArray(rest.option_groups)) {
    rest.option_groups = rest.option_groups.map((group: unknown) => {
      if (group === null || typeof group !== 'object') return group;
      const { options, ...fields } = group as Record<string, unknown>;
      return {
        ...fields,
        options: Array.isArray(options)
          ? options.map((option: unknown) => {
              if (option === null || typeof option !== 'object') return option;
              const copy = { ...(option as Record<string, unknown>) };
              delete copy.available;
              return copy;
            })
          : options,
      };
    });
  }
  return rest;
}

/**
 * True when a write changes nothing but `extra_data.<key>` (and, for
 * `available`, the options' `available`): every column and the rest of
 * extra_data stay as stored.
 */
export function changedOnly(current: EntityRecord, values: EntityValues, key: string): boolean {
  const columnsKept =
    values.slug === current.slug &&
    values.metaKey === current.metaKey &&
    values.metaValue === current.metaValue &&
    values.titleName === current.titleName &&
    values.description === current.description &&
    values.entityFeaturedUrl === current.entityFeaturedUrl &&
    values.status === current.status &&
    values.parentEntityUuid === current.parentEntityUuid;
  return (
    columnsKept &&
    canonical(without(values.extraData, key)) === canonical(without(current.extraData, key))
  );
}
