import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { newCatalog } from './support/entity';
import { expectOk } from './support/expect';
import { createUser } from './support/factory';
import { orderBody, placeOrder } from './support/order';
import { startTestApp, TestApp } from './support/test-app';

/** The JSON blocks of the worked example in docs/money.md, in the order the page shows them. */
function workedExample() {
  const page = readFileSync(join(__dirname, '..', 'docs', 'money.md'), 'utf8');
  const section = page.slice(page.indexOf('### Worked example'), page.indexOf('## Discount codes'));
  const blocks = [...section.matchAll(/```json\n([\s\S]*?)```/g)].map((m) => JSON.parse(m[1]));
  const [settings, code, cart, pricing] = blocks;
  return { settings, code, cart, pricing, page: section };
}

describe('docs/money.md worked example', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t?.close());

  it('places the order of the worked example and gets its pricing block', async () => {
    const example = workedExample();
    expect(example.page).toContain('"discount_code": "welcome10"');
    const owner = await createUser(t);
    const catalog = await newCatalog(t, owner, {
      business: { extra_data: example.settings },
      items: example.cart.map((line: Record<string, unknown>) => ({
        title_name: line.title_name,
        extra_data: { unit_price_amount: line.unit_price_amount },
      })),
    });
    expectOk(
      await t.http
        .post(`${t.core}/businesses/${catalog.business.uuid}/discounts`)
        .set(owner.headers)
        .send(example.code),
      201,
    );
    const body = orderBody(catalog, {
      cart_items: catalog.items.map((item, i) => ({
        uuid: item.uuid,
        quantity: example.cart[i].quantity,
      })),
      discount_code: String(example.code.code).toLowerCase(),
      tip_amount: example.pricing.tip,
      amount: example.pricing.total,
      onpremise_data: {
        customer_onpremise_location_type: 'table',
        customer_onpremise_location_number: '7',
        customer_onpremise_location: 'table_7',
      },
    });
    const quoted = expectOk(
      await t.http
        .post(`${t.orders}/order/quote`)
        .set({ 'x-api-key': t.config.apiKeys[0] })
        .send(body),
    );
    expect(quoted).toEqual({ pricing: example.pricing, problems: [] });
    const order = await placeOrder(t, body);
    expect(order.pricing).toEqual(example.pricing);
    expect(order.amount).toBe(example.pricing.total);
  });
});
