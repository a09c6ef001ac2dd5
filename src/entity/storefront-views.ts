import { isPlainObject } from './extra-data';
import { Allergen, canonicalLocale, MenuLanguages, readMenuLanguages } from './domain/menu-labels';

/**
 * What a guest asked the storefront for beyond the records: a language and
 * allergens to leave out. The plain answer (the default language, nothing
 * left out) is the stored document as it is.
 */
export interface StorefrontView {
  /** `?lang=`, as sent. */
  lang?: string;
  /** Picks the best of the available languages by the request's Accept-Language, or false. */
  acceptLanguage?: (available: string[]) => string | false;
  /** `?exclude_allergens=`, already checked against the vocabulary. */
  excludeAllergens: readonly Allergen[];
  /** `strict=true`: `may_contain` counts too. */
  strict: boolean;
}

/**
 * The language the storefront answers in (R118): `?lang`, else the best of
 * Accept-Language (q-values honoured), among the menu's available ones; a
 * regional tag that is not available falls back to its language (`fr-CI` →
 * `fr`), and anything else to the default.
 */
export function resolveLanguage(languages: MenuLanguages, view: StorefrontView): string {
  const available = languages.available;
  const pick = (tag: string | undefined): string | undefined => {
    const locale = canonicalLocale(tag);
    if (!locale) return undefined;
    const exact = available.find((one) => one.toLowerCase() === locale.toLowerCase());
    if (exact) return exact;
    const base = locale.split('-')[0].toLowerCase();
    return available.find((one) => one.toLowerCase() === base);
  };
  if (view.lang !== undefined) return pick(view.lang) ?? languages.default;
  const accepted = view.acceptLanguage?.(available);
  return (accepted && pick(accepted)) || languages.default;
}

/** The locales to look a translation up in, most specific first (`fr-CI`, `fr`). */
export function lookupChain(language: string): string[] {
  const base = language.split('-')[0];
  return base !== language ? [language, base] : [language];
}

type Json = Record<string, unknown>;

/**
 * A field of a record in `chain`'s language, else the default text (never
 * null where the default text is not).
 */
function translated(translations: unknown, field: string, chain: string[], fallback: unknown) {
  if (!isPlainObject(translations)) return fallback;
  for (const locale of chain) {
    const entry = translations[locale];
    if (isPlainObject(entry) && typeof entry[field] === 'string' && entry[field] !== '') {
      return entry[field];
    }
  }
  return fallback;
}

/**
 * A storefront record (business, menu or item) with its title and
 * description in `chain`'s language. The answer is in that one language, so
 * the records' `translations` (every other language's texts) are left out of
 * it: a large menu in three languages answers about the bytes of one.
 */
export function localiseRecord(record: Json, chain: string[]): Json {
  const extra = isPlainObject(record.extra_data) ? record.extra_data : {};
  const names = extra.translations;
  const { translations: _names, ...rest } = extra;
  const result: Json = {
    ...record,
    title_name: translated(names, 'title_name', chain, record.title_name),
    description: translated(names, 'description', chain, record.description),
  };
  if (isPlainObject(record.extra_data)) result.extra_data = rest;
  if (Array.isArray(extra.option_groups)) {
    result.extra_data = {
      ...rest,
      option_groups: extra.option_groups.map((group: unknown) => {
        if (!isPlainObject(group)) return group;
        const { translations: groupNames, ...groupRest } = group;
        return {
          ...groupRest,
          title: translated(groupNames, 'title', chain, group.title),
          options: Array.isArray(group.options)
            ? group.options.map((option: unknown) => {
                if (!isPlainObject(option)) return option;
                const { translations: optionNames, ...optionRest } = option;
                return {
                  ...optionRest,
                  title: translated(optionNames, 'title', chain, option.title),
                };
              })
            : group.options,
        };
      }),
    };
  }
  return result;
}

function listOf(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((one): one is string => typeof one === 'string') : [];
}

/** The allergens a record declares: `allergens`, plus `may_contain` when strict. */
function declared(record: Json, strict: boolean): Set<string> {
  return new Set([...listOf(record.allergens), ...(strict ? listOf(record.may_contain) : [])]);
}

/**
 * Whether an item has one of `excluded` (R119): in its own allergens
 * (`may_contain` too when strict), or in a required group (`min_selected` ≥
 * 1) every option of which has it.
 */
export function hasExcludedAllergen(
  extra: Json,
  excluded: readonly string[],
  strict: boolean,
): boolean {
  const own = declared(extra, strict);
  if (excluded.some((allergen) => own.has(allergen))) return true;
  const groups = Array.isArray(extra.option_groups) ? extra.option_groups : [];
  return groups.some((group: unknown) => {
    if (!isPlainObject(group) || !(Number(group.min_selected) >= 1)) return false;
    const options = Array.isArray(group.options) ? group.options.filter(isPlainObject) : [];
    if (options.length === 0) return false;
    const sets = options.map((option) => declared(option, strict));
    return excluded.some((allergen) => sets.every((set) => set.has(allergen)));
  });
}

/**
 * The storefront's `data` in a language and without the items that have an
 * excluded allergen, saying how many it left out (`excluded_count`).
 */
export function viewOfData(data: Json, language: string | undefined, view: StorefrontView): Json {
  const chain = language ? lookupChain(language) : undefined;
  const localise = (record: unknown) =>
    chain && isPlainObject(record) ? localiseRecord(record, chain) : record;
  let items = Array.isArray(data.items) ? data.items : [];
  const result: Json = { ...data };
  if (view.excludeAllergens.length > 0) {
    const kept = items.filter(
      (item: unknown) =>
        !isPlainObject(item) ||
        !hasExcludedAllergen(
          isPlainObject(item.extra_data) ? item.extra_data : {},
          view.excludeAllergens,
          view.strict,
        ),
    );
    result.excluded_count = items.length - kept.length;
    items = kept;
  }
  result.business = localise(data.business);
  result.menu = localise(data.menu);
  result.items = items.map(localise);
  return result;
}

/**
 * The language an order is placed in (R118): the body's `language`, else
 * the best of Accept-Language, among the menu's languages, as the storefront
 * resolves it; null for a menu without languages.
 */
export function orderLanguage(
  menuExtraData: Record<string, unknown>,
  sent: string | undefined,
  acceptLanguage?: (available: string[]) => string | false,
): string | null {
  const languages = readMenuLanguages(menuExtraData.languages);
  if (!languages) return null;
  return resolveLanguage(languages, {
    lang: sent,
    acceptLanguage,
    excludeAllergens: [],
    strict: false,
  });
}
