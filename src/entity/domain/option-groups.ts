import { ErrorDetail } from '../../http/api-error';
import {
  amount,
  Described,
  FieldRule,
  flag,
  integer,
  isPlainObject,
  nullable,
  rule,
  text,
} from '../extra-data';
import { LABEL_FIELDS, OPTION_TRANSLATIONS } from './menu-labels';

const OPTION_KEY = /^[a-z0-9_-]{1,64}$/;
export const MAX_OPTION_GROUPS = 20;
export const MAX_OPTIONS_PER_GROUP = 50;

/**
 * An item's option groups (sizes, extras, sides):
 * `[{ key, title, min_selected, max_selected, options: [{ key, title, price_delta, available }] }]`.
 * Keys match `^[a-z0-9_-]{1,64}$` and are unique (groups within the item,
 * options within their group); `0 ≤ min_selected ≤ max_selected ≤` the number
 * of options (min defaults to 0, max to the number of options);
 * `price_delta` is a non-negative amount (default "0", a number is stored as
 * its string); `available` a boolean (default true); at most 20 groups of at
 * most 50 options. Each fault names its path, such as
 * `extra_data.option_groups[1].options[0].price_delta`. Other keys are kept.
 */
/** The rules of one option's fields and of a group's counts, shared with the read models. */
export const OPTION_RULES = {
  key: rule(
    (value, field, faults) => {
      if (typeof value === 'string' && OPTION_KEY.test(value)) return value;
      faults.push({ field, message: `${field} must match ^[a-z0-9_-]{1,64}$.` });
    },
    { type: 'string', pattern: OPTION_KEY.source },
  ),
  title: text(),
  priceDelta: amount(),
  available: flag(),
  count: integer({ min: 0 }),
};

/** The rules of an option's allergens, dietary tags and translations. */
const OPTION_LABEL_RULES = { ...LABEL_FIELDS, translations: OPTION_TRANSLATIONS };

export function optionGroups(described?: Described): FieldRule {
  const { title, priceDelta: delta, available, count } = OPTION_RULES;
  const key = (value: unknown, at: string, seen: Set<string>, faults: ErrorDetail[]) => {
    if (typeof value !== 'string' || !OPTION_KEY.test(value)) {
      faults.push({ field: at, message: `${at} must match ^[a-z0-9_-]{1,64}$.` });
    } else if (seen.has(value)) {
      faults.push({ field: at, message: `${at} "${value}" is used twice.` });
    } else {
      seen.add(value);
    }
  };
  const check = (value: unknown, field: string, faults: ErrorDetail[]): unknown => {
    if (value === null) return value;
    if (!Array.isArray(value) || value.length > MAX_OPTION_GROUPS) {
      faults.push({
        field,
        message: `${field} must be a list of at most ${MAX_OPTION_GROUPS} option groups.`,
      });
      return;
    }
    const groupKeys = new Set<string>();
    return value.map((group: unknown, g) => {
      const at = `${field}[${g}]`;
      if (!isPlainObject(group)) {
        faults.push({ field: at, message: `${at} must be an object.` });
        return group;
      }
      const before = faults.length;
      key(group.key, `${at}.key`, groupKeys, faults);
      const groupTitle = title(group.title ?? null, `${at}.title`, faults);
      const options = group.options;
      let kept: unknown[] = [];
      if (!Array.isArray(options) || options.length > MAX_OPTIONS_PER_GROUP) {
        faults.push({
          field: `${at}.options`,
          message: `${at}.options must be a list of at most ${MAX_OPTIONS_PER_GROUP} options.`,
        });
      } else {
        const optionKeys = new Set<string>();
        kept = options.map((option: unknown, o) => {
          const oat = `${at}.options[${o}]`;
          if (!isPlainObject(option)) {
            faults.push({ field: oat, message: `${oat} must be an object.` });
            return option;
          }
          key(option.key, `${oat}.key`, optionKeys, faults);
          const result: Record<string, unknown> = {
            ...option,
            title: title(option.title ?? null, `${oat}.title`, faults),
            price_delta: delta(option.price_delta ?? '0', `${oat}.price_delta`, faults),
          };
          if (option.available !== undefined) {
            result.available = available(option.available, `${oat}.available`, faults);
          }
          // R116, R117: an option's allergens, dietary tags and translations.
          for (const [name, labelRule] of Object.entries(OPTION_LABEL_RULES)) {
            if (option[name] !== undefined) {
              result[name] = labelRule(option[name], `${oat}.${name}`, faults);
            }
          }
          return result;
        });
      }
      const optionCount = kept.length;
      const min = count(group.min_selected ?? 0, `${at}.min_selected`, faults);
      const max = count(group.max_selected ?? optionCount, `${at}.max_selected`, faults);
      if (faults.length === before) {
        if ((min as number) > (max as number)) {
          faults.push({
            field: `${at}.min_selected`,
            message: `${at}.min_selected must not be above max_selected.`,
          });
        } else if ((max as number) > optionCount) {
          faults.push({
            field: `${at}.max_selected`,
            message: `${at}.max_selected must not be above the number of options (${optionCount}).`,
          });
        }
      }
      const translated =
        group.translations !== undefined
          ? { translations: OPTION_TRANSLATIONS(group.translations, `${at}.translations`, faults) }
          : {};
      return {
        ...group,
        ...translated,
        title: groupTitle,
        min_selected: min,
        max_selected: max,
        options: kept,
      };
    });
  };
  const keySchema = OPTION_RULES.key.schema;
  const schema = nullable({
    type: 'array',
    maxItems: MAX_OPTION_GROUPS,
    description:
      'Keys are 1 to 64 of a-z, 0-9, _ and - and are unique (groups within the item, options ' +
      'within the group); 0 ≤ `min_selected` ≤ `max_selected` ≤ the number of options ' +
      `(defaults 0 and the number of options); at most ${MAX_OPTION_GROUPS} groups of at most ` +
      `${MAX_OPTIONS_PER_GROUP} options. Other keys are kept.`,
    items: {
      type: 'object',
      additionalProperties: true,
      required: ['key', 'options'],
      properties: {
        key: keySchema,
        title: title.schema,
        translations: OPTION_TRANSLATIONS.schema,
        min_selected: count.schema,
        max_selected: count.schema,
        options: {
          type: 'array',
          maxItems: MAX_OPTIONS_PER_GROUP,
          items: {
            type: 'object',
            additionalProperties: true,
            required: ['key'],
            properties: {
              key: keySchema,
              title: title.schema,
              price_delta: { ...delta.schema, default: '0' },
              available: { ...available.schema, default: true },
              ...Object.fromEntries(
                Object.entries(OPTION_LABEL_RULES).map(([name, r]) => [name, r.schema]),
              ),
            },
          },
        },
      },
    },
  });
  return rule(check, schema, described);
}
