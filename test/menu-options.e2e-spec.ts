import { Catalog, entityPath, newCatalog, newItem } from './support/entity';
import { expectError, expectOk } from './support/expect';
import { apiHeaders, createUser, TestUser } from './support/factory';
import { orderBody, placeOrder, placeOrderRequest, rowCounts } from './support/order';
import { startTestApp, TestApp } from './support/test-app';

const PIZZA_GROUPS = [
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
      { key: 'olives', title: 'Olives', price_delta: 0.5 },
      { key: 'onions', title: 'Onions', price_delta: '0.25' },
      { key: 'bacon', title: 'Bacon', price_delta: '1.25', available: false },
    ],
  },
];

// R34: option groups.
// R35: sold out.
describe('menu item options and sold-out items', () => {
  let t: TestApp;
  let owner: TestUser;
  let catalog: Catalog;

  beforeAll(async () => {
    t = await startTestApp();
    owner = await createUser(t);
    catalog = await newCatalog(t, owner, {
      items: [
        {
          title_name: 'Pizza',
          extra_data: { unit_price_amount: '9.99', option_groups: PIZZA_GROUPS },
        },
        {
          title_name: 'Lemonade',
          extra_data: {
            unit_price_amount: '2.00',
            option_groups: [
              {
                key: 'ice',
                title: 'Ice',
                min_selected: 0,
                max_selected: 1,
                options: [{ key: 'no-ice', title: 'No ice', price_delta: '0' }],
              },
            ],
          },
        },
        { title_name: 'Bread', extra_data: { unit_price_amount: '1.00' } },
      ],
    });
  });
  afterAll(() => t?.close());

  const [pizza, lemonade, bread] = [0, 1, 2].map((i) => () => catalog.items[i]);

  function pizzaLine(options: Array<[string, string]>, quantity = 1) {
    return {
      uuid: pizza().uuid,
      quantity,
      item_note: '',
      options: options.map(([group, option]) => ({ group, option })),
    };
  }

  async function expectRefused(body: Record<string, unknown>, status: number, code: string) {
    const before = await rowCounts(t);
    const res = await placeOrderRequest(t, body);
    expectError(res, status, code);
    expect(await rowCounts(t)).toEqual(before);
    return res.body.error.details as Array<Record<string, unknown>>;
  }

  describe('placement', () => {
    it('prices 2 × (9.99 + 1.50 + 0.75) = 24.48 exactly and keeps the chosen options on the line', async () => {
      const order = await placeOrder(
        t,
        orderBody(catalog, {
          amount: '24.48',
          cart_items: [
            pizzaLine(
              [
                ['extras', 'cheese'],
                ['size', 'large'],
              ],
              2,
            ),
          ],
        }),
      );
      expect(order.amount).toBe('24.48');
      expect(order.items).toEqual([
        expect.objectContaining({
          item_uuid: pizza().uuid,
          title_name: 'Pizza',
          unit_price_amount: '12.24',
          quantity: 2,
          line_total: '24.48',
          options: [
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
          ],
        }),
      ]);
      const [row] = await t.dataSource.query(
        'SELECT unit_price_amount, options FROM order_lines WHERE order_uuid = $1',
        [order.uuid],
      );
      expect(row.unit_price_amount).toBe('12.24');
      expect(row.options.map((o: { option: string }) => o.option)).toEqual(['large', 'cheese']);
      const read = expectOk(await t.http.get(`${t.core}/orders/${order.uuid}`).set(owner.headers));
      expect(read.items[0].options).toEqual(order.items[0].options);
    });

    it('refuses the base price only, with the computed total, and stores nothing', async () => {
      const details = await expectRefused(
        orderBody(catalog, {
          amount: '19.98',
          cart_items: [
            pizzaLine(
              [
                ['size', 'large'],
                ['extras', 'cheese'],
              ],
              2,
            ),
          ],
        }),
        422,
        'UNPROCESSABLE',
      );
      expect(details[0]).toMatchObject({ field: 'amount', computed_total: '24.48' });
    });

    it('orders an item without option groups exactly as before', async () => {
      const order = await placeOrder(
        t,
        orderBody(catalog, {
          amount: 2,
          cart_items: [{ uuid: bread().uuid, quantity: 2, item_note: '' }],
        }),
      );
      expect(order.items[0]).toMatchObject({ unit_price_amount: '1.00', line_total: '2.00' });
      expect(order.items[0].options).toEqual([]);
    });

    it.each<[string, Array<[string, string]>, string]>([
      ['a missing required group', [['extras', 'cheese']], 'size'],
      [
        'too many options of a group',
        [
          ['size', 'large'],
          ['size', 'regular'],
        ],
        'size',
      ],
      ['an unknown option', [['size', 'huge']], 'size'],
      [
        'an unavailable option',
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
      [
        'an option of another item',
        [
          ['size', 'large'],
          ['ice', 'no-ice'],
        ],
        'ice',
      ],
    ])(
      'refuses %s with 422 naming the line and the group, storing nothing',
      async (_, options, group) => {
        const details = await expectRefused(
          orderBody(catalog, {
            amount: '13.99',
            cart_items: [{ uuid: lemonade().uuid, quantity: 1, item_note: '' }, pizzaLine(options)],
          }),
          422,
          'UNPROCESSABLE',
        );
        expect(details).toHaveLength(1);
        expect(details[0]).toMatchObject({ field: 'cart_items.1.options', line: 2, group });
        expect(String(details[0].message)).toContain('Line 2');
        expect(String(details[0].message)).toContain(`"${group}"`);
      },
    );

    it('refuses an options entry that is not {group, option} with 400', async () => {
      const body = orderBody(catalog, {
        amount: '9.99',
        cart_items: [{ uuid: pizza().uuid, quantity: 1, options: [{ group: 'size' }] }],
      });
      await expectRefused(body, 400, 'VALIDATION_FAILED');
    });
  });

  describe('write-time checks of option_groups', () => {
    async function expectInvalid(optionGroups: unknown, field: string) {
      const [{ count: before }] = await t.dataSource.query(
        'SELECT count(*)::int AS count FROM entities',
      );
      const res = await t.http
        .post(entityPath(t, 'business_menu_item'))
        .set(owner.headers)
        .send({
          title_name: 'Broken',
          parent_entity_type: catalog.menu.entity_type,
          parent_entity_uuid: catalog.menu.uuid,
          extra_data: {
            unit_price_amount: '1.00',
            minimum_quantity_per_order: 1,
            maximum_quantity_per_order: 5,
            option_groups: optionGroups,
          },
        });
      expectError(res, 400, 'VALIDATION_FAILED');
      expect(res.body.error.details.map((d: { field: string }) => d.field)).toEqual([field]);
      const [{ count: after }] = await t.dataSource.query(
        'SELECT count(*)::int AS count FROM entities',
      );
      expect(after).toBe(before);
    }

    const groups = () => JSON.parse(JSON.stringify(PIZZA_GROUPS));

    it.each<[string, (g: any[]) => unknown, string]>([
      ['not a list', () => ({ size: {} }), 'extra_data.option_groups'],
      ['a group that is not an object', (g) => [g[0], 'extras'], 'extra_data.option_groups[1]'],
      ['a bad group key', (g) => void (g[0].key = 'Size'), 'extra_data.option_groups[0].key'],
      ['a repeated group key', (g) => void (g[1].key = 'size'), 'extra_data.option_groups[1].key'],
      [
        'a repeated option key',
        (g) => void (g[1].options[1].key = 'cheese'),
        'extra_data.option_groups[1].options[1].key',
      ],
      [
        'a negative price_delta',
        (g) => void (g[1].options[0].price_delta = '-0.75'),
        'extra_data.option_groups[1].options[0].price_delta',
      ],
      [
        'a price_delta that is not a number',
        (g) => void (g[1].options[0].price_delta = 'cheap'),
        'extra_data.option_groups[1].options[0].price_delta',
      ],
      [
        'options not a list',
        (g) => void (g[0].options = {}),
        'extra_data.option_groups[0].options',
      ],
      [
        'min above max',
        (g) => void (g[1].min_selected = 4),
        'extra_data.option_groups[1].min_selected',
      ],
      [
        'max above the number of options',
        (g) => void (g[0].max_selected = 3),
        'extra_data.option_groups[0].max_selected',
      ],
      [
        'an available flag that is not a boolean',
        (g) => void (g[0].options[0].available = 'soon'),
        'extra_data.option_groups[0].options[0].available',
      ],
    ])('refuses %s with 400 naming the path', async (_, change, field) => {
      const g = groups();
      await expectInvalid(change(g) ?? g, field);
    });
  });

  describe('sold out', () => {
    it('shows sold-out items and options on the storefront and refuses them at placement', async () => {
      const soup = await newItem(t, owner, catalog.menu, {
        title_name: 'Soup',
        extra_data: { unit_price_amount: '4.00', available: 'false', sort_position: 9 },
      });
      expect(soup.extra_data.available).toBe(false);
      const res = await t.http
        .get(`${t.core}/storefront/${catalog.business.meta_key}/menu/${catalog.menu.meta_key}`)
        .set(apiHeaders(t));
      const storefront = expectOk(res);
      const shown = storefront.items.find((i: { uuid: string }) => i.uuid === soup.uuid);
      expect(shown.extra_data.available).toBe(false);
      const shownPizza = storefront.items.find((i: { uuid: string }) => i.uuid === pizza().uuid);
      expect(shownPizza.extra_data.option_groups[1].options[3]).toMatchObject({
        key: 'bacon',
        available: false,
      });

      const details = await expectRefused(
        orderBody(catalog, {
          amount: '5.00',
          cart_items: [
            { uuid: bread().uuid, quantity: 1 },
            { uuid: soup.uuid, quantity: 1 },
          ],
        }),
        422,
        'UNPROCESSABLE',
      );
      expect(details[0]).toMatchObject({ field: 'cart_items.1.uuid', sold_out: true });
      expect(String(details[0].message)).toMatch(/Line 2.*sold out/);

      const option = await expectRefused(
        orderBody(catalog, {
          amount: '12.74',
          cart_items: [
            pizzaLine([
              ['size', 'large'],
              ['extras', 'bacon'],
            ]),
          ],
        }),
        422,
        'UNPROCESSABLE',
      );
      expect(option[0]).toMatchObject({ group: 'extras', option: 'bacon', sold_out: true });
      expect(String(option[0].message)).toMatch(/Line 1.*sold out/);

      // Back in stock: the same line is accepted.
      const put = await t.http
        .put(entityPath(t, 'business_menu_item', soup.uuid))
        .set(owner.headers)
        .send({ ...soup, extra_data: { ...soup.extra_data, available: true } });
      expectOk(put);
      await placeOrder(
        t,
        orderBody(catalog, { amount: '4.00', cart_items: [{ uuid: soup.uuid, quantity: 1 }] }),
      );
    });
  });
});
