import { ENTITY_TYPE_DEFINITIONS } from './entity-types';
import { EXTRA_DATA_MAX_BYTES, normaliseExtraData } from './extra-data';

const schemaOf = (suffix: string) =>
  ENTITY_TYPE_DEFINITIONS.find((definition) => definition.suffix === suffix)!.extraData;

const item = schemaOf('business_menu_item');
const menu = schemaOf('business_menu');
const business = schemaOf('business');

const validItem = {
  unit_price_amount: '10.00',
  minimum_quantity_per_order: 1,
  maximum_quantity_per_order: 5,
};

const fieldsOf = (faults: Array<{ field?: string }>) => faults.map((fault) => fault.field).sort();

describe('extra_data rules', () => {
  it('stores integer strings as integers and numbers as decimal strings', () => {
    const { value, faults } = normaliseExtraData(item, {
      unit_price_amount: 12.5,
      minimum_quantity_per_order: '2',
      maximum_quantity_per_order: ' 10 ',
      sort_position: '-3',
      tag: '',
      category: 'Delivery',
    });
    expect(faults).toEqual([]);
    expect(value).toEqual({
      unit_price_amount: '12.5',
      minimum_quantity_per_order: 2,
      maximum_quantity_per_order: 10,
      sort_position: -3,
      tag: '',
      category: 'Delivery',
    });
  });

  it('keeps unknown keys, including odd ones, as plain data', () => {
    const input = JSON.parse('{"__proto__": {"polluted": true}, "spice_level": [1, 2]}');
    const { value, faults } = normaliseExtraData(item, { ...validItem, ...input });
    expect(faults).toEqual([]);
    expect(Object.prototype.hasOwnProperty.call(value, '__proto__')).toBe(true);
    expect(value.spice_level).toEqual([1, 2]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('gives one fault per bad field', () => {
    const { faults } = normaliseExtraData(item, {
      unit_price_amount: '-1',
      minimum_quantity_per_order: '1.5',
      maximum_quantity_per_order: 'many',
      sort_position: true,
      tag: 5,
    });
    expect(fieldsOf(faults)).toEqual([
      'extra_data.maximum_quantity_per_order',
      'extra_data.minimum_quantity_per_order',
      'extra_data.sort_position',
      'extra_data.tag',
      'extra_data.unit_price_amount',
    ]);
  });

  it.each([
    ['unit_price_amount', 'abc'],
    ['unit_price_amount', '1e5'],
    ['unit_price_amount', '1.005'],
    ['unit_price_amount', 1e21],
    ['unit_price_amount', ''],
    ['minimum_quantity_per_order', -1],
    ['minimum_quantity_per_order', 2 ** 60],
    ['minimum_quantity_per_order', '12345678901234567'],
  ])('refuses %s = %p', (key, bad) => {
    const { faults } = normaliseExtraData(item, { ...validItem, [key]: bad });
    expect(fieldsOf(faults)).toEqual([`extra_data.${key}`]);
  });

  it('requires price and quantity range on an item, and maximum ≥ minimum', () => {
    expect(fieldsOf(normaliseExtraData(item, {}).faults)).toEqual([
      'extra_data.maximum_quantity_per_order',
      'extra_data.minimum_quantity_per_order',
      'extra_data.unit_price_amount',
    ]);
    const { faults } = normaliseExtraData(item, {
      ...validItem,
      minimum_quantity_per_order: 6,
    });
    expect(fieldsOf(faults)).toEqual(['extra_data.maximum_quantity_per_order']);
  });

  it('takes payment providers as an array or an object, as sent', () => {
    const asObject = {
      paystack: { title: 'Card', description: '', fee: 1.5, fee_max_amount: 2000 },
      bank_transfer: { title: 'Transfer' },
    };
    expect(normaliseExtraData(menu, { menu_checkout_payments_providers: asObject }).value).toEqual({
      menu_checkout_payments_providers: asObject,
    });
    expect(
      normaliseExtraData(menu, { menu_checkout_payments_providers: ['paystack'] }).value,
    ).toEqual({ menu_checkout_payments_providers: ['paystack'] });
    expect(
      fieldsOf(normaliseExtraData(menu, { menu_checkout_payments_providers: 'paystack' }).faults),
    ).toEqual(['extra_data.menu_checkout_payments_providers']);
  });

  it('checks nested objects field by field and keeps their unknown keys', () => {
    const { value, faults } = normaliseExtraData(menu, {
      support_tab: { title: 'Help', show_ring_feature_on_support_page: 'true', extra: 1 },
      contact_info: { email_address: 'not-an-email', show_contact_info_on_support_page: 'yes' },
      menu_featured_categories: ['Food', 3],
    });
    expect(fieldsOf(faults)).toEqual([
      'extra_data.contact_info.email_address',
      'extra_data.contact_info.show_contact_info_on_support_page',
      'extra_data.menu_featured_categories',
    ]);
    expect(value.support_tab).toEqual({
      title: 'Help',
      show_ring_feature_on_support_page: true,
      extra: 1,
    });
  });

  it('accepts an empty contact email and refuses a malformed one', () => {
    expect(normaliseExtraData(business, { contact_email: '' }).faults).toEqual([]);
    expect(fieldsOf(normaliseExtraData(business, { contact_email: 'a@b' }).faults)).toEqual([
      'extra_data.contact_email',
    ]);
  });

  it('refuses anything but an object, and more than 64 KiB', () => {
    expect(fieldsOf(normaliseExtraData(business, [1, 2]).faults)).toEqual(['extra_data']);
    expect(fieldsOf(normaliseExtraData(business, 'text').faults)).toEqual(['extra_data']);
    expect(normaliseExtraData(business, null)).toEqual({ value: {}, faults: [] });
    const big = { note: 'x'.repeat(EXTRA_DATA_MAX_BYTES) };
    expect(fieldsOf(normaliseExtraData(business, big).faults)).toEqual(['extra_data']);
    const fits = { note: 'x'.repeat(EXTRA_DATA_MAX_BYTES - 20) };
    expect(normaliseExtraData(business, fits).faults).toEqual([]);
  });
});

describe('option groups and availability of items', () => {
  const groups = () => [
    {
      key: 'size',
      title: 'Size',
      min_selected: '1',
      max_selected: 1,
      options: [
        { key: 'regular', title: 'Regular', price_delta: 0 },
        { key: 'large', title: 'Large', price_delta: '1.50' },
      ],
    },
    {
      key: 'extras',
      title: 'Extras',
      options: [{ key: 'bacon', title: 'Bacon', price_delta: 1.25, available: 'false' }],
    },
  ];

  it('normalises counts, deltas and availability, with defaults', () => {
    const { value, faults } = normaliseExtraData(item, {
      ...validItem,
      available: 'false',
      option_groups: groups(),
    });
    expect(faults).toEqual([]);
    expect(value.available).toBe(false);
    expect(value.option_groups).toEqual([
      {
        key: 'size',
        title: 'Size',
        min_selected: 1,
        max_selected: 1,
        options: [
          { key: 'regular', title: 'Regular', price_delta: '0' },
          { key: 'large', title: 'Large', price_delta: '1.50' },
        ],
      },
      {
        key: 'extras',
        title: 'Extras',
        min_selected: 0,
        max_selected: 1,
        options: [{ key: 'bacon', title: 'Bacon', price_delta: '1.25', available: false }],
      },
    ]);
  });

  const broken = (change: (g: any[]) => unknown) => {
    const g = groups();
    const input = change(g) ?? g;
    return fieldsOf(normaliseExtraData(item, { ...validItem, option_groups: input }).faults);
  };

  it.each<[string, (g: any[]) => unknown, string]>([
    ['not a list', () => ({ size: [] }), 'extra_data.option_groups'],
    ['a group that is not an object', (g) => void (g[1] = 'extras'), 'extra_data.option_groups[1]'],
    ['a bad group key', (g) => void (g[0].key = 'Size!'), 'extra_data.option_groups[0].key'],
    ['a repeated group key', (g) => void (g[1].key = 'size'), 'extra_data.option_groups[1].key'],
    [
      'a repeated option key',
      (g) => void (g[0].options[1].key = 'regular'),
      'extra_data.option_groups[0].options[1].key',
    ],
    [
      'a negative delta',
      (g) => void (g[1].options[0].price_delta = '-1'),
      'extra_data.option_groups[1].options[0].price_delta',
    ],
    [
      'a delta with three decimals',
      (g) => void (g[1].options[0].price_delta = '0.125'),
      'extra_data.option_groups[1].options[0].price_delta',
    ],
    ['no options list', (g) => void delete g[0].options, 'extra_data.option_groups[0].options'],
    [
      'min above max',
      (g) => void (g[0].min_selected = 2),
      'extra_data.option_groups[0].min_selected',
    ],
    [
      'max above the number of options',
      (g) => void (g[0].max_selected = 3),
      'extra_data.option_groups[0].max_selected',
    ],
    [
      'a negative min',
      (g) => void (g[0].min_selected = -1),
      'extra_data.option_groups[0].min_selected',
    ],
    [
      'an availability that is not a boolean',
      (g) => void (g[1].options[0].available = 'maybe'),
      'extra_data.option_groups[1].options[0].available',
    ],
    [
      'more than 20 groups',
      () => Array.from({ length: 21 }, (_, i) => ({ key: `g${i}`, options: [] })),
      'extra_data.option_groups',
    ],
    [
      'more than 50 options',
      (g) =>
        void (g[1].options = Array.from({ length: 51 }, (_, i) => ({
          key: `o${i}`,
          price_delta: '0',
        }))),
      'extra_data.option_groups[1].options',
    ],
  ])('refuses %s, naming the path', (_, change, field) => {
    expect(broken(change)).toEqual([field]);
  });
});
