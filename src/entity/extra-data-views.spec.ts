import { ENTITY_TYPE_DEFINITIONS } from './entity-types';
import { normaliseExtraData } from './extra-data';
import { readBusinessView, readMenuItemView, readMenuView } from './extra-data-views';

const schemaOf = (suffix: string) =>
  ENTITY_TYPE_DEFINITIONS.find((definition) => definition.suffix === suffix)!.extraData;

/** What the validator stores for `input` (which must be valid). */
function stored(suffix: string, input: Record<string, unknown>): Record<string, unknown> {
  const { value, faults } = normaliseExtraData(schemaOf(suffix), input);
  expect(faults).toEqual([]);
  return value;
}

describe('extra_data read models', () => {
  const sent = {
    unit_price_amount: 12.5,
    minimum_quantity_per_order: '1',
    maximum_quantity_per_order: '10',
    available: 'false',
    sort_position: '3',
    category: 'Mains',
    option_groups: [
      {
        key: 'size',
        options: [
          { key: 'regular', price_delta: 0 },
          { key: 'large', price_delta: 1.5, available: 'true' },
        ],
      },
    ],
  };

  it('reads a raw item the same as the validator stores it', () => {
    const value = stored('business_menu_item', sent);
    const fromRaw = readMenuItemView(sent);
    expect(fromRaw).toEqual(readMenuItemView(value));
    expect(fromRaw.unitPrice).toBe(value.unit_price_amount);
    expect(fromRaw.unitPrice).toBe('12.5');
    expect(fromRaw.minimumQuantity).toBe(value.minimum_quantity_per_order);
    expect(fromRaw.maximumQuantity).toBe(10);
    expect(fromRaw.available).toBe(value.available);
    expect(fromRaw.available).toBe(false);
    expect(fromRaw.sortPosition).toBe(3);
    const group = (value.option_groups as any[])[0];
    expect(fromRaw.optionGroups).toEqual([
      {
        key: 'size',
        title: null,
        minSelected: group.min_selected,
        maxSelected: group.max_selected,
        options: group.options.map((option: any) => ({
          key: option.key,
          title: null,
          priceDelta: option.price_delta,
          available: option.available ?? true,
          allergens: [],
        })),
      },
    ]);
    expect(fromRaw.optionGroups[0].options[1]).toMatchObject({
      priceDelta: '1.5',
      available: true,
    });
  });

  it('reads what a rule refuses (a row older than the rule) as the default, never throwing', () => {
    const old = {
      unit_price_amount: '12.345',
      minimum_quantity_per_order: -2,
      available: 'maybe',
      category: '   ',
      option_groups: [
        { key: 'Bad Key', options: [] },
        { key: 'size', options: [{ key: 'big', price_delta: 'lots' }, { key: 'small' }] },
      ],
    };
    const view = readMenuItemView(old);
    expect(view).toMatchObject({
      unitPrice: null,
      minimumQuantity: null,
      maximumQuantity: null,
      available: true,
      category: null,
    });
    expect(view.optionGroups).toEqual([
      {
        key: 'size',
        title: null,
        minSelected: 0,
        maxSelected: 1,
        options: [{ key: 'small', title: null, priceDelta: '0', available: true, allergens: [] }],
      },
    ]);
    // R116: allergens read as the rule stores them; a list it refuses reads as none.
    expect(readMenuItemView({ allergens: ['milk', 'gluten'] }).allergens).toEqual([
      'gluten',
      'milk',
    ]);
    expect(readMenuItemView({ allergens: ['milk', 'tree nuts'] }).allergens).toEqual([]);
    for (const garbage of [null, undefined, 'text', 42, []]) {
      expect(() => readMenuItemView(garbage)).not.toThrow();
      expect(() => readMenuView(garbage)).not.toThrow();
      expect(() => readBusinessView(garbage)).not.toThrow();
    }
  });

  it('reads a menu and a business the same as the validator stores them', () => {
    const menu = {
      menu_base_wallet_ticker: 'NGN',
      menu_checkout_payments_providers: { paystack: { channels: ['card'] } },
      fulfilment: { modes: ['pickup'], prep_time_minutes: '20' },
    };
    const menuView = readMenuView(menu);
    expect(menuView).toEqual(readMenuView(stored('business_menu', menu)));
    expect(menuView.fulfilment).toEqual(stored('business_menu', menu).fulfilment);
    expect(menuView.fulfilment!.prep_time_minutes).toBe(20);
    expect(menuView.currency).toBe('NGN');
    expect(readMenuView({ fulfilment: { modes: [] } }).fulfilment).toBeNull();

    const business = {
      accepting_orders: 'false',
      pricing: { tax: { rate_percent: 7.5 } },
    };
    const businessView = readBusinessView(business);
    expect(businessView).toEqual(readBusinessView(stored('business', business)));
    expect(businessView.acceptingOrders).toBe(false);
    expect(businessView.pricing).toEqual(stored('business', business).pricing);
    expect(readBusinessView({}).acceptingOrders).toBe(true);
    expect(readBusinessView({ accepting_orders: 'nope' }).acceptingOrders).toBe(true);
  });
});
