/**
 * The bench's scheduled menu: orders for later in 5-minute slots with a cap
 * per slot, so the scheduled order row measures the slot's row lock that
 * every such placement takes. The cap is high enough that the bench's orders
 * are never refused, and the bodies spread over as many slots as there are
 * bodies.
 */
import { Api, SeededItem } from './seed';
import { seedPlainItems } from './seed-plain-items';
import { createBusiness, createMenu } from './seed-common';

export const SCHEDULED_BUSINESS_META_KEY = 'bench-scheduled';
export const SCHEDULED_ITEMS = 20;
/** Slots the bodies spread over: one per body. */
export const SCHEDULED_SLOTS = 20;
export const FULFILMENT = {
  modes: ['dine_in', 'pickup', 'delivery'],
  scheduling: { enabled: true, slot_minutes: 5, max_days_ahead: 7, max_orders_per_slot: 10000 },
};

export interface SeededSchedule {
  menuUuid: string;
  items: SeededItem[];
}

/** The scheduled business (no opening hours: every slot is open, in UTC), its menu and items. */
export async function seedScheduled(api: Api, token: string): Promise<SeededSchedule> {
  const business = await createBusiness(
    api,
    token,
    SCHEDULED_BUSINESS_META_KEY,
    'Bench Scheduled Kitchen',
  );
  const menu = await createMenu(api, token, business.uuid, 'later', 'Later', {
    fulfilment: FULFILMENT,
  });
  const items = await seedPlainItems(api, token, menu.uuid, SCHEDULED_ITEMS, {
    metaKey: 'later',
    title: 'Later dish',
  });
  return { menuUuid: menu.uuid, items };
}

/**
 * Pickup orders for later of 5 lines at the scheduled menu: body `i` asks
 * for slot `i` of tomorrow (UTC), so simultaneous placements take different
 * slots' locks as well as the same one's. `forLater` false: the same orders
 * for now, which take no slot, to measure the lock against.
 */
export function scheduledOrderBodies(
  seeded: SeededSchedule,
  forLater = true,
  now = new Date(),
): string[] {
  const tomorrow = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
  const slotMs = FULFILMENT.scheduling.slot_minutes * 60_000;
  const items = seeded.items;
  return Array.from({ length: SCHEDULED_SLOTS }, (_, start) => {
    const lines = Array.from({ length: 5 }, (_, i) => ({
      item: items[(start + i) % items.length],
      quantity: 1 + (i % 2),
    }));
    const cents = lines.reduce(
      (sum, line) => sum + Math.round(Number(line.item.unitPrice) * 100) * line.quantity,
      0,
    );
    return JSON.stringify({
      menu_uuid: seeded.menuUuid,
      amount: `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`,
      payment_processor: 'cash',
      customer_email_address: `guest${start}@example.test`,
      fulfilment_type: 'pickup',
      ...(forLater ? { requested_time: new Date(tomorrow + start * slotMs).toISOString() } : {}),
      cart_items: lines.map(({ item, quantity }) => ({ uuid: item.uuid, quantity })),
    });
  });
}
