import { CartLineInput, OrderableItem, priceCart } from './cart-pricing';
import { formatMoney } from '../../common/money';

let counter = 0;
function item(extra: Record<string, unknown>, titleName: string | null = 'Dish'): OrderableItem {
  counter++;
  return {
    uuid: `00000000-0000-4000-8000-${String(counter).padStart(12, '0')}`,
    titleName,
    extraData: {
      unit_price_amount: '1.00',
      minimum_quantity_per_order: 1,
      maximum_quantity_per_order: 10,
      category: 'Food',
      ...extra,
    },
  };
}

function catalogue(...items: OrderableItem[]): Map<string, OrderableItem> {
  return new Map(items.map((i) => [i.uuid, i]));
}

function line(target: OrderableItem, quantity = 1, item_note?: string): CartLineInput {
  return { uuid: target.uuid, quantity, item_note };
}

describe('cart pricing (cart lines and the exact total)', () => {
  it('computes line totals and the total exactly, and snapshots each item', () => {
    const dime = item({ unit_price_amount: '0.10' }, 'Mint');
    const big = item({ unit_price_amount: 19.99 }, 'Platter');
    const result = priceCart(
      [line(dime), line(dime), line(dime), line(big, 3, 'no onions')],
      catalogue(dime, big),
    );
    if (!result.ok) throw new Error(JSON.stringify(result.problems));
    expect(formatMoney(result.total)).toBe('60.27');
    expect(result.lines.map((l) => formatMoney(l.lineTotal))).toEqual([
      '0.10',
      '0.10',
      '0.10',
      '59.97',
    ]);
    expect(result.lines[3]).toMatchObject({
      position: 3,
      itemUuid: big.uuid,
      titleName: 'Platter',
      category: 'Food',
      quantity: 3,
      itemNote: 'no onions',
    });
  });

  it('names each line whose item is not on the menu', () => {
    const known = item({});
    const result = priceCart(
      [line(known), { uuid: '00000000-0000-4000-8000-999999999999', quantity: 1 }],
      catalogue(known),
    );
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems).toEqual([
      expect.objectContaining({
        field: 'cart_items.1.uuid',
        message: expect.stringMatching(/^Line 2/),
      }),
    ]);
  });

  it('names the line and the allowed range when a quantity is outside it', () => {
    const limited = item(
      { minimum_quantity_per_order: '2', maximum_quantity_per_order: '4' },
      'Wings',
    );
    for (const quantity of [1, 5]) {
      const result = priceCart([line(limited, quantity)], catalogue(limited));
      expect(result.ok).toBe(false);
      if (result.ok) continue;
      expect(result.problems[0]).toMatchObject({
        field: 'cart_items.0.quantity',
        minimum: 2,
        maximum: 4,
      });
      expect(result.problems[0].message).toContain('2–4');
      expect(result.problems[0].message).toContain('"Wings"');
    }
    expect(priceCart([line(limited, 2)], catalogue(limited)).ok).toBe(true);
    expect(priceCart([line(limited, 4)], catalogue(limited)).ok).toBe(true);
  });

  it('holds the range for the same item spread over several lines', () => {
    const limited = item({ maximum_quantity_per_order: 3 });
    const result = priceCart([line(limited, 2), line(limited, 2)], catalogue(limited));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems).toEqual([expect.objectContaining({ field: 'cart_items.1.quantity' })]);
  });

  it('has no upper bound when the item sets no maximum, and at least 1 always', () => {
    const open = item({ minimum_quantity_per_order: 0, maximum_quantity_per_order: undefined });
    expect(priceCart([line(open, 500)], catalogue(open)).ok).toBe(true);
  });

  it('refuses an item without a chargeable price', () => {
    for (const price of [undefined, '', 'free', '1.005', '-3']) {
      const odd = item({ unit_price_amount: price });
      const result = priceCart([line(odd)], catalogue(odd));
      expect(result.ok).toBe(false);
    }
  });

  it('allows one delivery line, not two', () => {
    const food = item({});
    const courier = item({ category: 'Delivery' });
    const pickup = item({ category: ' delivery ' });
    expect(priceCart([line(food), line(courier)], catalogue(food, courier, pickup)).ok).toBe(true);
    const result = priceCart(
      [line(courier), line(food), line(pickup)],
      catalogue(food, courier, pickup),
    );
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems).toEqual([
      expect.objectContaining({
        field: 'cart_items.2.uuid',
        message: expect.stringContaining('1, 3'),
      }),
    ]);
  });

  it('refuses a total larger than the amount column holds', () => {
    const dear = item({ unit_price_amount: '999999999999.99', maximum_quantity_per_order: 5 });
    const result = priceCart([line(dear, 2)], catalogue(dear));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems[0].field).toBe('amount');
  });
});

describe('cart pricing with options and sold-out items', () => {
  const pizza = () =>
    item(
      {
        unit_price_amount: '9.99',
        option_groups: [
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
            max_selected: 3,
            options: [
              { key: 'cheese', title: 'Cheese', price_delta: '0.75' },
              { key: 'bacon', title: 'Bacon', price_delta: '1.25', available: false },
            ],
          },
        ],
      },
      'Pizza',
    );
  const withOptions = (target: OrderableItem, quantity: number, options: string[][]) => ({
    uuid: target.uuid,
    quantity,
    options: options.map(([group, option]) => ({ group, option })),
  });

  it('adds the chosen deltas to the unit price exactly and keeps them in item order', () => {
    const p = pizza();
    const result = priceCart(
      [
        withOptions(p, 2, [
          ['extras', 'cheese'],
          ['size', 'large'],
        ]),
      ],
      catalogue(p),
    );
    if (!result.ok) throw new Error(JSON.stringify(result.problems));
    expect(formatMoney(result.lines[0].unitPrice)).toBe('12.24');
    expect(formatMoney(result.total)).toBe('24.48');
    expect(result.lines[0].options).toEqual([
      {
        group: 'size',
        group_title: 'Size',
        option: 'large',
        option_title: 'Large',
        price_delta: '1.50',
      },
      {
        group: 'extras',
        group_title: 'Extras',
        option: 'cheese',
        option_title: 'Cheese',
        price_delta: '0.75',
      },
    ]);
  });

  it.each([
    ['missing required group', [['extras', 'cheese']], 'size'],
    [
      'too many',
      [
        ['size', 'large'],
        ['size', 'regular'],
      ],
      'size',
    ],
    ['unknown option', [['size', 'huge']], 'size'],
    [
      'unknown group',
      [
        ['size', 'large'],
        ['sauce', 'bbq'],
      ],
      'sauce',
    ],
    [
      'sold-out option',
      [
        ['size', 'large'],
        ['extras', 'bacon'],
      ],
      'extras',
    ],
    [
      'the same option twice',
      [
        ['size', 'large'],
        ['extras', 'cheese'],
        ['extras', 'cheese'],
      ],
      'extras',
    ],
  ])('refuses %s, naming the line and the group', (_, options, group) => {
    const p = pizza();
    const other = item({}, 'Salad');
    const result = priceCart(
      [{ uuid: other.uuid, quantity: 1 }, withOptions(p, 1, options)],
      catalogue(p, other),
    );
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems).toHaveLength(1);
    expect(result.problems[0]).toMatchObject({ field: 'cart_items.1.options', line: 2, group });
    expect(result.problems[0].message).toContain('Line 2');
    expect(result.problems[0].message).toContain(`"${group}"`);
  });

  it('refuses an option on an item without option groups', () => {
    const plain = item({}, 'Salad');
    const result = priceCart([withOptions(plain, 1, [['size', 'large']])], catalogue(plain));
    expect(result.ok).toBe(false);
  });

  it('refuses a sold-out item, naming the line', () => {
    const gone = item({ available: false }, 'Soup');
    const result = priceCart([line(gone)], catalogue(gone));
    expect(result).toEqual({
      ok: false,
      problems: [expect.objectContaining({ field: 'cart_items.0.uuid', sold_out: true })],
    });
    if (!result.ok) expect(result.problems[0].message).toMatch(/Line 1.*sold out/);
  });
});
