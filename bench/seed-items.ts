/**
 * The bench's menu items as an owner creates them through the API: P1's and
 * P3's dishes (two option groups each, prices spread over 1.00–120.95), and
 * the same dishes on the other menus that must price orders alike.
 */
import { Api, expectStatus, inParallel, OPTION_GROUPS, priceOf, SeededItem } from './seed';

const CATEGORIES = ['Starters', 'Mains', 'Sides', 'Desserts', 'Drinks'];

/** `count` dishes on a menu, `extra` adding to each one's `extra_data`; in index order. */
export async function seedMenuItems(
  api: Api,
  token: string,
  menuUuid: string,
  count: number,
  extra: (index: number) => Record<string, unknown> = () => ({}),
): Promise<SeededItem[]> {
  const items: SeededItem[] = new Array(count);
  await inParallel(count, async (index) => {
    const unitPrice = priceOf(index);
    const minimum = 1;
    const maximum = 5 + (index % 20);
    const created = await expectStatus(
      api,
      'POST',
      `/public/api/v1/${api.ns}/smart-meta-manager/entity/${api.ns}_business_menu_item`,
      {
        meta_key: `item-${index}`,
        title_name: `Dish number ${index}`,
        description: `House dish ${index}: seasonal ingredients, cooked to order, served warm.`,
        status: 'enabled',
        parent_entity_type: `${api.ns}_business_menu`,
        parent_entity_uuid: menuUuid,
        extra_data: {
          tag: index % 7 === 0 ? 'popular' : '',
          category: CATEGORIES[index % CATEGORIES.length],
          unit_price_amount: unitPrice,
          minimum_quantity_per_order: minimum,
          maximum_quantity_per_order: maximum,
          // A permutation of 0..count-1, so the sort has real work to do.
          sort_position: (index * 617) % count,
          option_groups: OPTION_GROUPS,
          ...extra(index),
        },
      },
      201,
      token,
    );
    items[index] = { uuid: created.uuid, unitPrice, minimum, maximum };
  });
  return items;
}
