import { entityPath, EntityResponse, newBusiness, newItem, newMenu } from './support/entity';
import { expectError, expectOk } from './support/expect';
import { apiHeaders, createUser, TestUser } from './support/factory';
import { guestHeaders, placeOrder, placeOrderRequest, rowCounts } from './support/order';
import { startTestApp, TestApp } from './support/test-app';

const FRIES_GROUP = {
  key: 'side',
  title: 'Side',
  translations: { fr: { title: 'Accompagnement' } },
  min_selected: 1,
  max_selected: 1,
  options: [
    {
      key: 'attieke',
      title: 'Cassava couscous',
      translations: { fr: { title: 'Attiéké' } },
      allergens: ['fish'],
    },
    { key: 'alloco', title: 'Fried plantain', allergens: ['fish'], may_contain: ['peanuts'] },
  ],
};

// R116: allergens and dietary tags. R117: translations. R118: the storefront's language.
// R119: the storefront leaves out items by allergen.
describe('menus for everyone: languages, allergens and dietary tags', () => {
  let t: TestApp;
  let owner: TestUser;
  let business: EntityResponse;
  let menu: EntityResponse;
  let chicken: EntityResponse;
  let salad: EntityResponse;
  let fish: EntityResponse;

  beforeAll(async () => {
    t = await startTestApp({ STOREFRONT_CACHE_TTL_MS: '60000' });
    owner = await createUser(t);
    business = await newBusiness(t, owner, {
      extra_data: { translations: { fr: { title_name: 'Chez Kemi' } } },
    });
    menu = await newMenu(t, owner, business, {
      title_name: 'Lunch',
      extra_data: {
        languages: { default: 'en', available: ['en', 'fr', 'ar'] },
        translations: { fr: { title_name: 'Déjeuner' }, ar: { title_name: 'غداء' } },
      },
    });
    chicken = await newItem(t, owner, menu, {
      title_name: 'Braised chicken',
      description: 'With onions',
      extra_data: {
        sort_position: 1,
        allergens: ['mustard', 'gluten'],
        dietary: ['halal', 'spicy'],
        translations: { fr: { title_name: 'Poulet braisé' } },
      },
    });
    salad = await newItem(t, owner, menu, {
      title_name: 'Salad',
      extra_data: {
        sort_position: 2,
        may_contain: ['milk'],
        dietary: ['vegan'],
        translations: {
          'fr-ci': { title_name: 'Salade ivoirienne' },
          fr: { title_name: 'Salade' },
        },
      },
    });
    fish = await newItem(t, owner, menu, {
      title_name: 'Grilled fish',
      extra_data: { sort_position: 3, option_groups: [FRIES_GROUP] },
    });
  });
  afterAll(() => t?.close());

  const path = (query = '') =>
    `${t.core}/storefront/${business.meta_key}/menu/${menu.meta_key}${query}`;

  async function read(query = '', headers: Record<string, string> = {}) {
    const res = await t.http.get(path(query)).set(apiHeaders(t)).set(headers);
    const data = expectOk(res);
    return { res, data, titles: data.items.map((item: EntityResponse) => item.title_name) };
  }

  it('stores the labels in the order of their lists and shows them in the storefront', async () => {
    expect(chicken.extra_data.allergens).toEqual(['gluten', 'mustard']);
    expect(chicken.extra_data.dietary).toEqual(['halal', 'spicy']);
    // Locales are stored in their canonical case.
    expect(Object.keys(salad.extra_data.translations).sort()).toEqual(['fr', 'fr-CI']);
    const { data } = await read();
    expect(data.items[0].extra_data.allergens).toEqual(['gluten', 'mustard']);
    expect(data.items[2].extra_data.option_groups[0].options[1].may_contain).toEqual(['peanuts']);
  });

  it.each([
    [{ allergens: ['gluten', 'tree nuts'] }, 'extra_data.allergens'],
    [{ may_contain: 'milk' }, 'extra_data.may_contain'],
    [{ dietary: ['vegetarian', 'keto'] }, 'extra_data.dietary'],
    [{ translations: { 'not a tag!': { title_name: 'x' } } }, 'extra_data.translations.not a tag!'],
    [{ translations: { fr: { title: 'x' } } }, 'extra_data.translations.fr.title'],
    [{ translations: { fr: { title_name: 5 } } }, 'extra_data.translations.fr.title_name'],
    [
      {
        translations: Object.fromEntries(
          Array.from({ length: 21 }, (_, i) => [`x-l${i}`, { title_name: 'x' }]),
        ),
      },
      'extra_data.translations',
    ],
    [
      { option_groups: [{ ...FRIES_GROUP, options: [{ key: 'a', allergens: ['sand'] }] }] },
      'extra_data.option_groups[0].options[0].allergens',
    ],
    [
      { option_groups: [{ ...FRIES_GROUP, translations: { fr: { name: 'x' } } }] },
      'extra_data.option_groups[0].translations.fr.name',
    ],
  ])('refuses an item with %j, naming %s, and stores nothing', async (extra, field) => {
    const before = await t.http
      .get(entityPath(t, 'business_menu_item', chicken.uuid))
      .set(owner.headers);
    const res = await t.http
      .put(entityPath(t, 'business_menu_item', chicken.uuid))
      .set(owner.headers)
      .send({ extra_data: { ...chicken.extra_data, ...extra } });
    expectError(res, 400, 'VALIDATION_FAILED');
    expect(res.body.error.details.map((detail: { field: string }) => detail.field)).toContain(
      field,
    );
    const after = await t.http
      .get(entityPath(t, 'business_menu_item', chicken.uuid))
      .set(owner.headers);
    expect(expectOk(after).extra_data).toEqual(expectOk(before).extra_data);
  });

  it('refuses a menu whose languages are not BCP 47 tags', async () => {
    const res = await t.http
      .put(entityPath(t, 'business_menu', menu.uuid))
      .set(owner.headers)
      .send({
        extra_data: { ...menu.extra_data, languages: { default: 'en', available: ['??'] } },
      });
    expectError(res, 400, 'VALIDATION_FAILED');
    expect(res.body.error.details[0].field).toBe('extra_data.languages.available[0]');
  });

  it('answers in the default language, saying so, when no language is asked for', async () => {
    const { res, data, titles } = await read();
    expect(res.headers['content-language']).toBe('en');
    expect(res.headers.vary).toMatch(/Accept-Language/);
    expect(titles).toEqual(['Braised chicken', 'Salad', 'Grilled fish']);
    expect(data.menu.title_name).toBe('Lunch');
  });

  it('answers in ?lang field by field, falling back to the default text', async () => {
    const { res, data, titles } = await read('?lang=fr');
    expect(res.headers['content-language']).toBe('fr');
    expect(titles).toEqual(['Poulet braisé', 'Salade', 'Grilled fish']);
    // No French description: the English one, never null.
    expect(data.items[0].description).toBe('With onions');
    expect(data.business.title_name).toBe('Chez Kemi');
    expect(data.menu.title_name).toBe('Déjeuner');
    const group = data.items[2].extra_data.option_groups[0];
    expect(group.title).toBe('Accompagnement');
    expect(group.options.map((o: { title: string }) => o.title)).toEqual([
      'Attiéké',
      'Fried plantain',
    ]);
  });

  it('falls back from a region to its language, and from an unknown language to the default', async () => {
    // fr-CI is not an available language: fr, whose record may still hold an fr-CI text.
    const regional = await read('?lang=fr-CI');
    expect(regional.res.headers['content-language']).toBe('fr');
    expect(regional.titles[1]).toBe('Salade');
    const unknown = await read('?lang=de');
    expect(unknown.res.headers['content-language']).toBe('en');
    expect(unknown.titles[0]).toBe('Braised chicken');
  });

  it('honours Accept-Language with q-values, and ?lang over it', async () => {
    const arabic = await read('', { 'Accept-Language': 'de;q=1, fr;q=0.5, ar;q=0.8' });
    expect(arabic.res.headers['content-language']).toBe('ar');
    expect(arabic.data.menu.title_name).toBe('غداء');
    const french = await read('', { 'Accept-Language': 'fr-CI, en;q=0.1' });
    expect(french.res.headers['content-language']).toBe('fr');
    const chosen = await read('?lang=en', { 'Accept-Language': 'fr' });
    expect(chosen.res.headers['content-language']).toBe('en');
  });

  it('keeps one ETag per language, answers 304 to it, and shows a write at once', async () => {
    const english = await read();
    const french = await read('?lang=fr');
    expect(french.res.headers.etag).not.toBe(english.res.headers.etag);
    const again = await t.http
      .get(path('?lang=fr'))
      .set(apiHeaders(t))
      .set('If-None-Match', french.res.headers.etag);
    expect(again.status).toBe(304);
    // The plain answer's 304 varies on the language as its 200 does.
    const plain304 = await t.http
      .get(path())
      .set(apiHeaders(t))
      .set('If-None-Match', english.res.headers.etag);
    expect(plain304.status).toBe(304);
    expect(plain304.headers.vary).toMatch(/Accept-Language/);
    expect(plain304.headers['content-language']).toBe('en');
    // The English ETag does not stand for the French answer.
    const other = await t.http
      .get(path('?lang=fr'))
      .set(apiHeaders(t))
      .set('If-None-Match', english.res.headers.etag);
    expect(other.status).toBe(200);
    const renamed = await t.http
      .put(entityPath(t, 'business_menu_item', chicken.uuid))
      .set(owner.headers)
      .send({
        extra_data: {
          ...chicken.extra_data,
          translations: { fr: { title_name: 'Poulet DG' } },
        },
      });
    expectOk(renamed);
    const after = await read('?lang=fr');
    expect(after.titles[0]).toBe('Poulet DG');
    expect(after.res.headers.etag).not.toBe(french.res.headers.etag);
    chicken = expectOk(renamed);
  });

  it('leaves out the items with an excluded allergen and says how many', async () => {
    const milk = await read('?exclude_allergens=milk');
    expect(milk.titles).toEqual(['Braised chicken', 'Salad', 'Grilled fish']);
    expect(milk.data.excluded_count).toBe(0);
    const strict = await read('?exclude_allergens=milk&strict=true');
    expect(strict.titles).toEqual(['Braised chicken', 'Grilled fish']);
    expect(strict.data.excluded_count).toBe(1);
    // Every option of a required group has fish: the item has it.
    const noFish = await read('?exclude_allergens=fish,gluten&lang=fr');
    expect(noFish.titles).toEqual(['Salade']);
    expect(noFish.data.excluded_count).toBe(2);
    // Only one option may contain peanuts: the guest can choose the other.
    const peanuts = await read('?exclude_allergens=peanuts&strict=true');
    expect(peanuts.data.excluded_count).toBe(0);
  });

  it('refuses an allergen that is not in the list', async () => {
    const res = await t.http.get(path('?exclude_allergens=milk,shellfish')).set(apiHeaders(t));
    expectError(res, 400, 'VALIDATION_FAILED');
    expect(res.body.error.details[0].field).toBe('exclude_allergens');
  });

  it('a menu without languages answers as before: no Content-Language', async () => {
    const plainMenu = await newMenu(t, owner, business);
    await newItem(t, owner, plainMenu, {
      extra_data: { translations: { fr: { title_name: 'x' } } },
    });
    const res = await t.http
      .get(`${t.core}/storefront/${business.meta_key}/menu/${plainMenu.meta_key}?lang=fr`)
      .set(apiHeaders(t));
    const data = expectOk(res);
    expect(res.headers['content-language']).toBeUndefined();
    expect(data.items[0].title_name).not.toBe('x');
  });

  const orderLine = (item: EntityResponse, options: Array<[string, string]> = []) => ({
    uuid: item.uuid,
    quantity: 1,
    item_note: '',
    options: options.map(([group, option]) => ({ group, option })),
  });
  const orderOf = (lines: object[], amount: string, extra: Record<string, unknown> = {}) => ({
    menu_uuid: menu.uuid,
    amount,
    payment_processor: 'cash',
    customer_email_address: 'guest@example.test',
    customer_phone_number: '+2348000000000',
    customer_requested_order_email_copy: false,
    general_note: '',
    delivery_data: { delivery_identifier: '', delivery_address: '' },
    onpremise_data: {
      customer_onpremise_location_type: '',
      customer_onpremise_location_number: '',
      customer_onpremise_location: '_',
    },
    cart_items: lines,
    ...extra,
  });

  it('records on each order line the allergens of its item and its chosen options', async () => {
    const order = await placeOrder(
      t,
      orderOf(
        [orderLine(chicken), orderLine(salad), orderLine(fish, [['side', 'alloco']])],
        '30.00',
      ),
    );
    expect(order.items.map((item: { allergens: string[] }) => item.allergens)).toEqual([
      ['gluten', 'mustard'],
      // may_contain is not recorded as contained.
      [],
      ['fish'],
    ]);
  });

  it("records the language an order was placed in, among the menu's", async () => {
    const chickenOnly = (extra: Record<string, unknown> = {}) =>
      orderOf([orderLine(chicken)], '10.00', extra);
    const byHeader = await placeOrder(t, chickenOnly(), {
      ...guestHeaders(t),
      'Accept-Language': 'fr-CI, en;q=0.5',
    });
    expect(byHeader.language).toBe('fr');
    const byBody = await placeOrder(t, chickenOnly({ language: 'ar' }), {
      ...guestHeaders(t),
      'Accept-Language': 'fr',
    });
    expect(byBody.language).toBe('ar');
    const unknown = await placeOrder(t, chickenOnly({ language: 'de' }));
    expect(unknown.language).toBe('en');
    const before = await rowCounts(t);
    const refused = await placeOrderRequest(t, chickenOnly({ language: 'not a tag' }));
    expectError(refused, 400, 'VALIDATION_FAILED');
    expect(refused.body.error.details[0].field).toBe('language');
    expect(await rowCounts(t)).toEqual(before);
  });
});
