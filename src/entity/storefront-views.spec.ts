import { hasExcludedAllergen, lookupChain, resolveLanguage, viewOfData } from './storefront-views';

const languages = { default: 'en', available: ['en', 'fr', 'fr-CI', 'ar'] };
const view = { excludeAllergens: [], strict: false } as const;

// R118: the storefront's language. R119: leaving allergens out.
describe('storefront views', () => {
  it('resolves ?lang first, then Accept-Language, then the default', () => {
    expect(resolveLanguage(languages, { ...view, lang: 'FR-ci' })).toBe('fr-CI');
    expect(resolveLanguage(languages, { ...view, lang: 'fr-BE' })).toBe('fr');
    expect(resolveLanguage(languages, { ...view, lang: 'de' })).toBe('en');
    expect(resolveLanguage(languages, { ...view, lang: '!!' })).toBe('en');
    expect(resolveLanguage(languages, { ...view, acceptLanguage: () => 'ar' })).toBe('ar');
    expect(resolveLanguage(languages, { ...view, acceptLanguage: () => false })).toBe('en');
    expect(resolveLanguage(languages, { ...view, lang: 'fr', acceptLanguage: () => 'ar' })).toBe(
      'fr',
    );
  });

  it('looks a translation up in the region, then its language', () => {
    expect(lookupChain('fr-CI')).toEqual(['fr-CI', 'fr']);
    expect(lookupChain('fr')).toEqual(['fr']);
  });

  it('counts an option only when every option of a required group has the allergen', () => {
    const group = (min: number, lists: string[][]) => ({
      option_groups: [
        { key: 'g', min_selected: min, options: lists.map((allergens) => ({ allergens })) },
      ],
    });
    expect(hasExcludedAllergen(group(1, [['milk'], ['milk', 'eggs']]), ['milk'], false)).toBe(true);
    expect(hasExcludedAllergen(group(1, [['milk'], ['eggs']]), ['milk'], false)).toBe(false);
    expect(hasExcludedAllergen(group(0, [['milk'], ['milk']]), ['milk'], false)).toBe(false);
    expect(hasExcludedAllergen({ may_contain: ['nuts'] }, ['nuts'], false)).toBe(false);
    expect(hasExcludedAllergen({ may_contain: ['nuts'] }, ['nuts'], true)).toBe(true);
  });

  it('never answers null where the default text is not', () => {
    const data = {
      business: { title_name: 'B', description: null, extra_data: {} },
      menu: { title_name: 'M', description: 'D', extra_data: { translations: { fr: {} } } },
      items: [
        {
          title_name: 'Rice',
          description: 'Plain',
          extra_data: { translations: { fr: { title_name: 'Riz', description: '' } } },
        },
      ],
    };
    const french = viewOfData(data, 'fr', view);
    expect(french.menu).toMatchObject({ title_name: 'M', description: 'D' });
    expect((french.items as object[])[0]).toMatchObject({
      title_name: 'Riz',
      description: 'Plain',
    });
    expect(french.excluded_count).toBeUndefined();
  });
});
