import { CartLineInput, OrderableItem, priceCart } from './cart-pricing';
import { formatMoney } from './money';

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

describe('cart pricing (rules 3 and 4, D19)', () => {
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
