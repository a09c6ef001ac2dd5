/**
 * Plain items for the bench's extra menus (priced, scheduled): one category,
 * no options, quantities 1–10, the same prices as the main menu's items.
 */
import { Api, expectStatus, inParallel, priceOf, SeededItem } from './seed';

export async function seedPlainItems(
  api: Api,
  token: string,
  menuUuid: string,
  count: number,
  names: { metaKey: string; title: string },
): Promise<SeededItem[]> {
  const path = `/public/api/v1/${api.ns}/smart-meta-manager/entity/${api.ns}_business_menu_item`;
  const items: SeededItem[] = new Array(count);
  await inParallel(count, async (index) => {
    const unitPrice = priceOf(index);
    const created = await expectStatus(
      api,
      'POST',
      path,
      {
        meta_key: `${names.metaKey}-${index}`,
        title_name: `${names.title} ${index}`,
        status: 'enabled',
        parent_entity_type: `${api.ns}_business_menu`,
        parent_entity_uuid: menuUuid,
        extra_data: {
          category: 'Mains',
          unit_price_amount: unitPrice,
          minimum_quantity_per_order: 1,
          maximum_quantity_per_order: 10,
        },
      },
      201,
      token,
    );
    items[index] = { uuid: created.uuid, unitPrice, minimum: 1, maximum: 10 };
  });
  return items;
}
