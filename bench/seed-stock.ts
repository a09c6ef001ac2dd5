/**
 * P10's data: one business with a menu of 20 items that count their
 * portions, the same 20 items on a menu without stock, and a menu of one hot
 * stocked item every connection orders at once. The first two measure what
 * taking portions costs a placement; the hot one that fifty connections on
 * one count keep it exact.
 */
import { Api, expectStatus, inParallel, priceOf, SeededItem } from './seed';
import { createBusiness, createMenu } from './seed-common';

export const STOCK_BUSINESS_META_KEY = 'bench-stock';
export const STOCK_ITEMS = 20;
/** Enough portions that no run sells out. */
const PORTIONS = 100_000;

export interface SeededStock {
  stockedMenuUuid: string;
  plainMenuUuid: string;
  hotMenuUuid: string;
  stockedItems: SeededItem[];
  plainItems: SeededItem[];
  hotItem: SeededItem;
}

async function items(
  api: Api,
  token: string,
  menuUuid: string,
  count: number,
  stocked: boolean,
): Promise<SeededItem[]> {
  const path = `/public/api/v1/${api.ns}/smart-meta-manager/entity/${api.ns}_business_menu_item`;
  const seeded: SeededItem[] = new Array(count);
  await inParallel(count, async (index) => {
    const unitPrice = priceOf(index);
    const created = await expectStatus(
      api,
      'POST',
      path,
      {
        title_name: `Stock dish ${index}`,
        status: 'enabled',
        parent_entity_type: `${api.ns}_business_menu`,
        parent_entity_uuid: menuUuid,
        extra_data: {
          category: 'Mains',
          unit_price_amount: unitPrice,
          minimum_quantity_per_order: 1,
          maximum_quantity_per_order: 10,
          ...(stocked ? { stock: { mode: 'daily', quantity: PORTIONS, low_at: 10 } } : {}),
        },
      },
      201,
      token,
    );
    seeded[index] = { uuid: created.uuid, unitPrice, minimum: 1, maximum: 10 };
  });
  return seeded;
}

export async function seedStock(api: Api, token: string): Promise<SeededStock> {
  const business = await createBusiness(api, token, STOCK_BUSINESS_META_KEY, 'Bench Stock Kitchen');
  const menu = (metaKey: string) => createMenu(api, token, business.uuid, metaKey, metaKey);
  const stocked = await menu('stocked');
  const plain = await menu('unstocked');
  const hot = await menu('hot');
  return {
    stockedMenuUuid: stocked.uuid,
    plainMenuUuid: plain.uuid,
    hotMenuUuid: hot.uuid,
    stockedItems: await items(api, token, stocked.uuid, STOCK_ITEMS, true),
    plainItems: await items(api, token, plain.uuid, STOCK_ITEMS, false),
    hotItem: (await items(api, token, hot.uuid, 1, true))[0],
  };
}

const amountOf = (cents: number) =>
  `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;

/**
 * Cash orders of 5 lines, one body per item, the same on the stocked and
 * the unstocked menu; for `hot`, one portion of the hot item per order.
 */
export function stockOrderBodies(
  seeded: SeededStock,
  which: 'stocked' | 'plain' | 'hot',
): string[] {
  if (which === 'hot') {
    const item = seeded.hotItem;
    return Array.from({ length: 20 }, (_, start) =>
      JSON.stringify({
        menu_uuid: seeded.hotMenuUuid,
        amount: item.unitPrice,
        payment_processor: 'cash',
        customer_email_address: `hot${start}@example.test`,
        cart_items: [{ uuid: item.uuid, quantity: 1 }],
      }),
    );
  }
  const items = which === 'stocked' ? seeded.stockedItems : seeded.plainItems;
  return items.map((_, start) => {
    const lines = Array.from({ length: 5 }, (_, i) => ({
      item: items[(start + i) % items.length],
      quantity: 1 + (i % 2),
    }));
    const cents = lines.reduce(
      (sum, line) => sum + Math.round(Number(line.item.unitPrice) * 100) * line.quantity,
      0,
    );
    return JSON.stringify({
      menu_uuid: which === 'stocked' ? seeded.stockedMenuUuid : seeded.plainMenuUuid,
      amount: amountOf(cents),
      payment_processor: 'cash',
      customer_email_address: `stock${start}@example.test`,
      cart_items: lines.map(({ item, quantity }) => ({ uuid: item.uuid, quantity })),
    });
  });
}
