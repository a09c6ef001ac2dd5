/**
 * The bench's priced business: VAT, a dine-in service charge and a discount
 * code without limits (as most promotions run), so the priced order row
 * measures pricing and the redemption; a code without limits locks nothing.
 */
import { Api, expectStatus, SeededItem } from './seed';
import { seedPlainItems } from './seed-plain-items';
import { createBusiness, createMenu } from './seed-common';

/** The priced business's settings, as the bench's order bodies price them. */
export const PRICED_BUSINESS_META_KEY = 'bench-priced';
export const PRICED_ITEMS = 20;
export const PRICING = {
  tax: { label: 'VAT', rate_percent: '7.5' },
  service_charge: { label: 'Service', rate_percent: '10', modes: ['dine_in'] },
};
/** 10 % off, no limits: every order adds a redemption, none waits for another. */
export const DISCOUNT = { code: 'BENCH10', kind: 'percent', value: '10' };

export interface SeededPricing {
  businessUuid: string;
  menuUuid: string;
  items: SeededItem[];
}

/** The priced business, its one menu of plain items, and its discount code. */
export async function seedPriced(api: Api, token: string): Promise<SeededPricing> {
  const core = `/public/api/v1/${api.ns}`;
  const business = await createBusiness(
    api,
    token,
    PRICED_BUSINESS_META_KEY,
    'Bench Priced Grill',
    { pricing: PRICING },
  );
  const menu = await createMenu(api, token, business.uuid, 'grill', 'Grill');
  const items = await seedPlainItems(api, token, menu.uuid, PRICED_ITEMS, {
    metaKey: 'grill',
    title: 'Grill dish',
  });
  await expectStatus(
    api,
    'POST',
    `${core}/businesses/${business.uuid}/discounts`,
    DISCOUNT,
    201,
    token,
  );
  return { businessUuid: business.uuid, menuUuid: menu.uuid, items };
}
