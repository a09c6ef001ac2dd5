import { Described, FieldRule, isPlainObject, nullable, rule } from '../extra-data';

/** The 14 allergens of EU Regulation 1169/2011 Annex II, in the Annex's order. */
export const ALLERGENS = [
  'gluten',
  'crustaceans',
  'eggs',
  'fish',
  'peanuts',
  'soybeans',
  'milk',
  'nuts',
  'celery',
  'mustard',
  'sesame',
  'sulphites',
  'lupin',
  'molluscs',
] as const;

/** The dietary tags an item or option may carry. */
export const DIETARY_TAGS = [
  'vegetarian',
  'vegan',
  'halal',
  'kosher',
  'gluten_free',
  'dairy_free',
  'spicy',
] as const;

export type Allergen = (typeof ALLERGENS)[number];

const ALLERGEN_SET: ReadonlySet<string> = new Set(ALLERGENS);

export function isAllergen(value: string): value is Allergen {
  return ALLERGEN_SET.has(value);
}

/**
 * A subset of a fixed vocabulary, as a list of its words (each at most once,
 * kept in the vocabulary's order); null means "not set". Anything else is a
 * fault naming the path and the word.
 */
export function vocabularyList(vocabulary: readonly string[], described?: Described): FieldRule {
  const known = new Set(vocabulary);
  return rule(
    (value, field, faults) => {
      if (value === null) return value;
      if (!Array.isArray(value)) {
        faults.push({ field, message: `${field} must be a list of: ${vocabulary.join(', ')}.` });
        return;
      }
      const unknown = value.filter((entry) => typeof entry !== 'string' || !known.has(entry));
      if (unknown.length > 0) {
        faults.push({
          field,
          message: `${field} may only hold ${vocabulary.join(', ')}; not ${unknown
            .map((entry) => JSON.stringify(entry))
            .join(', ')}.`,
        });
        return;
      }
      const chosen = new Set(value as string[]);
      return vocabulary.filter((word) => chosen.has(word));
    },
    nullable({
      type: 'array',
      uniqueItems: true,
      items: { type: 'string', enum: [...vocabulary] },
    }),
    described,
  );
}

// R116: allergens and may_contain are subsets of the 14 of EU 1169/2011 Annex II.
export const allergenList = (described?: Described) => vocabularyList(ALLERGENS, described);
// R116: dietary tags are a subset of a fixed list.
export const dietaryList = (described?: Described) => vocabularyList(DIETARY_TAGS, described);

/** The label fields of items and options, by name. */
export const LABEL_FIELDS = {
  allergens: allergenList({
    description: 'Allergens the dish contains (EU 1169/2011 Annex II).',
    example: ['gluten', 'milk'],
  }),
  may_contain: allergenList({
    description: 'Allergens the dish may contain in traces.',
    example: ['nuts'],
  }),
  dietary: dietaryList({ description: 'Dietary tags.', example: ['vegetarian'] }),
};

/** At most this many locales on one record (its `translations`, a menu's `available`). */
export const MAX_LOCALES = 20;
const MAX_TRANSLATED_TEXT = 10_000;

/** A BCP 47 tag in its canonical case (`fr-ci` → `fr-CI`), or undefined when it is not one. */
export function canonicalLocale(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.length === 0 || value.length > 35) return undefined;
  try {
    const [canonical] = Intl.getCanonicalLocales(value);
    return canonical;
  } catch {
    return undefined;
  }
}

/**
 * `translations: {"fr": {"title_name": "…", "description": "…"}}`: up to 20
 * BCP 47 locales (stored in canonical case), each naming only the translated
 * fields of this kind of record, as strings.
 */
export function translations(fields: readonly string[], described?: Described): FieldRule {
  const allowed = new Set(fields);
  return rule(
    (value, field, faults) => {
      if (value === null) return value;
      if (!isPlainObject(value)) {
        faults.push({ field, message: `${field} must be an object keyed by locale.` });
        return;
      }
      const entries = Object.entries(value);
      // R117: at most 20 locales on a record, each a BCP 47 tag.
      if (entries.length > MAX_LOCALES) {
        faults.push({ field, message: `${field} may hold at most ${MAX_LOCALES} locales.` });
        return;
      }
      const result: Record<string, Record<string, string>> = {};
      const before = faults.length;
      for (const [tag, texts] of entries) {
        const at = `${field}.${tag}`;
        const locale = canonicalLocale(tag);
        if (!locale) {
          faults.push({ field: at, message: `${at}: "${tag}" is not a BCP 47 language tag.` });
          continue;
        }
        if (Object.prototype.hasOwnProperty.call(result, locale)) {
          faults.push({ field: at, message: `${at}: the locale ${locale} is given twice.` });
          continue;
        }
        if (!isPlainObject(texts)) {
          faults.push({ field: at, message: `${at} must be an object.` });
          continue;
        }
        const kept: Record<string, string> = {};
        for (const [name, text] of Object.entries(texts)) {
          if (!allowed.has(name)) {
            faults.push({
              field: `${at}.${name}`,
              message: `${at} may only translate ${fields.join(', ')}.`,
            });
          } else if (typeof text !== 'string' || text.length > MAX_TRANSLATED_TEXT) {
            faults.push({
              field: `${at}.${name}`,
              message: `${at}.${name} must be a string of at most ${MAX_TRANSLATED_TEXT} characters.`,
            });
          } else {
            kept[name] = text;
          }
        }
        result[locale] = kept;
      }
      return faults.length === before ? result : undefined;
    },
    nullable({
      type: 'object',
      maxProperties: MAX_LOCALES,
      description: `Keyed by BCP 47 locale (at most ${MAX_LOCALES}); each names only ${fields.join(', ')}.`,
      additionalProperties: {
        type: 'object',
        additionalProperties: false,
        properties: Object.fromEntries(fields.map((name) => [name, { type: 'string' }])),
      },
    }),
    described,
  );
}

export const RECORD_TRANSLATIONS = translations(['title_name', 'description'], {
  description: 'Translations of the record’s title_name and description.',
  example: { fr: { title_name: 'Poulet braisé', description: 'Avec attiéké' } },
});
export const OPTION_TRANSLATIONS = translations(['title'], {
  description: 'Translations of the title.',
  example: { fr: { title: 'Grande' } },
});

/** A menu's language setting. */
export interface MenuLanguages {
  default: string;
  available: string[];
}

/**
 * A menu's `languages: {default, available}`: BCP 47 tags, at most 20
 * available, the default among them (added first when left out).
 */
export function menuLanguages(described?: Described): FieldRule {
  return rule(
    (value, field, faults) => {
      if (value === null) return value;
      if (!isPlainObject(value)) {
        faults.push({ field, message: `${field} must be an object {default, available}.` });
        return;
      }
      const before = faults.length;
      const fallback = canonicalLocale(value.default);
      if (!fallback) {
        faults.push({
          field: `${field}.default`,
          message: `${field}.default must be a BCP 47 language tag.`,
        });
      }
      const listed = value.available ?? [];
      const available: string[] = [];
      if (!Array.isArray(listed) || listed.length > MAX_LOCALES) {
        faults.push({
          field: `${field}.available`,
          message: `${field}.available must be a list of at most ${MAX_LOCALES} language tags.`,
        });
      } else {
        listed.forEach((tag: unknown, i) => {
          const locale = canonicalLocale(tag);
          if (!locale) {
            faults.push({
              field: `${field}.available[${i}]`,
              message: `${field}.available[${i}] must be a BCP 47 language tag.`,
            });
          } else if (!available.includes(locale)) {
            available.push(locale);
          }
        });
      }
      if (faults.length > before || !fallback) return;
      if (!available.includes(fallback)) available.unshift(fallback);
      if (available.length > MAX_LOCALES) {
        faults.push({
          field: `${field}.available`,
          message: `${field}.available must hold at most ${MAX_LOCALES} language tags.`,
        });
        return;
      }
      return { ...value, default: fallback, available };
    },
    nullable({
      type: 'object',
      required: ['default'],
      properties: {
        default: { type: 'string', example: 'fr' },
        available: {
          type: 'array',
          maxItems: MAX_LOCALES,
          items: { type: 'string' },
          example: ['fr', 'en'],
        },
      },
    }),
    described,
  );
}

/** The menu's languages as stored, or undefined when it has none. */
export function readMenuLanguages(value: unknown): MenuLanguages | undefined {
  if (!isPlainObject(value) || typeof value.default !== 'string') return undefined;
  const available = Array.isArray(value.available)
    ? value.available.filter((tag): tag is string => typeof tag === 'string')
    : [];
  return { default: value.default, available: available.length ? available : [value.default] };
}
