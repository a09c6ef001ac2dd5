import type { KitchenSetting } from '../../entity';

/** What routing needs of an order line. */
export interface RoutableLine {
  itemUuid: string;
  category: string | null;
}

/** Lines of this category are the delivery fee, not food: no station sees them. */
export const DELIVERY_CATEGORY = 'Delivery';

// R82: routing to stations.
/**
 * The station of one line: the first station naming its item's uuid, else
 * the first naming its category, else the default station; null for a
 * `Delivery` line.
 */
export function stationOf(line: RoutableLine, kitchen: KitchenSetting): string | null {
  if (line.category === DELIVERY_CATEGORY) return null;
  const item = line.itemUuid.toLowerCase();
  const byItem = kitchen.stations.find((station) => station.item_uuids.includes(item));
  if (byItem) return byItem.key;
  if (line.category !== null) {
    const byCategory = kitchen.stations.find((station) =>
      station.categories.includes(line.category!),
    );
    if (byCategory) return byCategory.key;
  }
  return kitchen.default_station;
}

/** The lines of each station that has any, stations in the setting's order. */
export function routeLines<L extends RoutableLine>(
  lines: readonly L[],
  kitchen: KitchenSetting,
): Map<string, L[]> {
  const routed = new Map<string, L[]>();
  for (const station of kitchen.stations) routed.set(station.key, []);
  for (const line of lines) {
    const key = stationOf(line, kitchen);
    if (key !== null) routed.get(key)!.push(line);
  }
  for (const [key, list] of routed) if (list.length === 0) routed.delete(key);
  return routed;
}
