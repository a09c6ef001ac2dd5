/**
 * P13's data: a business whose menu of P3's 100 dishes keeps a tab for each
 * dine-in table (`fulfilment.dine_in.pay_at_end`), and an open tab on each
 * of TAB_TABLES tables, opened by a first round as a party's first order
 * opens it. The load's rounds carry their table's `tab_token`, as the
 * party's later rounds do.
 */
import { orderBody } from './order-bodies';
import { Api, expectStatus, SeededItem } from './seed';
import { seedMenuItems } from './seed-items';
import { createBusiness, createMenu } from './seed-common';

export const TABS_BUSINESS_META_KEY = 'bench-tabs';
/**
 * One tab per table, and the rounds spread over all of them in turn: a
 * party orders a round every few minutes, so two rounds of one tab almost
 * never arrive together (each round locks its tab's row until it commits).
 */
export const TAB_TABLES = 50;
const TAB_ITEMS = 100;

export interface SeededTabs {
  menuUuid: string;
  items: SeededItem[];
  /** The open tab's token of each table, by table number. */
  tabTokens: string[];
}

export async function seedTabs(api: Api, token: string): Promise<SeededTabs> {
  const business = await createBusiness(api, token, TABS_BUSINESS_META_KEY, 'Bench Tabs Bar');
  const menu = await createMenu(api, token, business.uuid, 'tabs', 'Tabs', {
    fulfilment: { modes: ['dine_in', 'pickup'], dine_in: { pay_at_end: true } },
  });
  const items = await seedMenuItems(api, token, menu.uuid, TAB_ITEMS);
  const tabTokens: string[] = [];
  for (let table = 0; table < TAB_TABLES; table++) {
    const placed = await expectStatus(
      api,
      'POST',
      `/plugins/${api.ns}/${api.ns}-init/order`,
      orderBody(menu.uuid, items, table, 'cash', { number: table }),
      201,
    );
    if (!placed.tab?.tab_token) throw new Error(`table ${table}: the first round opened no tab`);
    tabTokens.push(placed.tab.tab_token);
  }
  return { menuUuid: menu.uuid, items, tabTokens };
}

/** P3's bodies on the tabs menu, each a round of the open tab of table `start` % TAB_TABLES. */
export function tabRoundBodies(seeded: SeededTabs): string[] {
  return seeded.items.map((_, start) => {
    const table = start % TAB_TABLES;
    return JSON.stringify(
      orderBody(seeded.menuUuid, seeded.items, start, 'cash', {
        number: table,
        tabToken: seeded.tabTokens[table],
      }),
    );
  });
}
