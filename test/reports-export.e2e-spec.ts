import http from 'node:http';
import { parse } from 'csv-parse/sync';
import { Catalog, newCatalog, newItem } from './support/entity';
import { expectError, expectOk } from './support/expect';
import { createUser, TestUser } from './support/factory';
import { orderBody, placeOrder, updateOrderRequest } from './support/order';
import { addMember } from './support/team';
import { startTestApp, TestApp } from './support/test-app';

const WEEKLY = Object.fromEntries(
  ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((day) => [day, [['00:00', '24:00']]]),
);

const ORDER_COLUMNS = [
  'order_reference',
  'uuid',
  'created_at',
  'status',
  'payment_processor',
  'payment_status',
  'payment_channels',
  'fulfilment_type',
  'requested_time',
  'customer_email_address',
  'customer_phone_number',
  'items_subtotal',
  'delivery_fee',
  'discount',
  'discount_code',
  'service_charge',
  'tax',
  'tip',
  'total',
  'refunded',
  'channel',
];
const LINE_COLUMNS = [
  'item_uuid',
  'title_name',
  'options',
  'quantity',
  'unit_price_amount',
  'line_total',
];

/** Parses as a spreadsheet import would: RFC 4180, quotes, embedded line breaks. */
function parseCsv(text: string): string[][] {
  return parse(text, { relax_column_count: false, record_delimiter: '\r\n' }) as string[][];
}

// R63: csv export.
/**
 * The CSV export of a business in Lagos (+01:00 all year): every order of
 * the period, read back with a real CSV parser, tricky customer fields and
 * item titles included, across several read batches.
 */
describe('reports: the orders of a period as CSV', () => {
  let t: TestApp;
  let owner: TestUser;
  let manager: TestUser;
  let staff: TestUser;
  let outsider: TestUser;
  let catalog: Catalog;
  let business: string;
  const placed: Array<{ uuid: string; phone: string; email: string }> = [];

  /** Tricky phone numbers (any text up to 32 characters is taken) and what the CSV must show. */
  const PHONES: Array<[string, string]> = [
    ['=HYPERLINK("http://x","go")', `'=HYPERLINK("http://x","go")`],
    ['line one\nline two, "quoted"', 'line one\nline two, "quoted"'],
    ['+2348000000000', `'+2348000000000`],
    ['@SUM(A1:A9)', `'@SUM(A1:A9)`],
    ['-1+1', `'-1+1`],
    ['\tTAB', `'\tTAB`],
    ['\rCR', `'\rCR`],
    ['a,b;c', 'a,b;c'],
  ];

  function csvPath(id = business): string {
    return `${t.core}/businesses/${id}/orders.csv`;
  }

  async function csv(user: TestUser, query: Record<string, unknown>): Promise<string[][]> {
    const res = await t.http
      .get(csvPath())
      .query(query)
      .set(user.headers)
      .buffer(true)
      .parse((response, done) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => done(null, text));
      });
    if (res.status !== 200) throw new Error(`${res.status} ${String(res.body)}`);
    return parseCsv(res.body as string);
  }

  beforeAll(async () => {
    t = await startTestApp();
    [owner, manager, staff, outsider] = [
      await createUser(t),
      await createUser(t),
      await createUser(t),
      await createUser(t),
    ];
    catalog = await newCatalog(t, owner, {
      business: { extra_data: { opening_hours: { timezone: 'Africa/Lagos', weekly: WEEKLY } } },
      items: [
        {
          title_name: '=Jollof, "smoky"\nwith plantain',
          extra_data: {
            unit_price_amount: '10.00',
            option_groups: [
              {
                key: 'size',
                title: 'Size',
                min_selected: 0,
                max_selected: 1,
                options: [{ key: 'large', title: 'Large', price_delta: '1.50' }],
              },
            ],
          },
        },
      ],
    });
    catalog.items.push(await newItem(t, owner, catalog.menu, { title_name: 'Suya' }));
    business = catalog.business.uuid;
    await newCatalog(t, outsider, { items: [{}] });
    await addMember(t, owner, business, manager, 'manager');
    await addMember(t, owner, business, staff, 'staff');

    const [jollof, suya] = catalog.items;
    for (const [index, [phone]] of PHONES.entries()) {
      const body = orderBody(catalog, {
        customer_phone_number: phone,
        cart_items: [
          { uuid: jollof.uuid, quantity: 1, options: [{ group: 'size', option: 'large' }] },
          { uuid: suya.uuid, quantity: 2 },
        ],
        amount: '31.50',
      });
      const order = await placeOrder(t, body);
      placed.push({ uuid: order.uuid, phone, email: body.customer_email_address as string });
      if (index === 1) {
        expectOk(await updateOrderRequest(t, owner.headers, order.uuid, { status: 'rejected' }));
      }
      // Dated with SQL (placement stamps the current time): one a day from 2026-03-01, at
      // 23:30 Lagos time, which is 22:30 UTC.
      await t.dataSource.query(`UPDATE orders SET created_at = $2, tip = '0.50' WHERE uuid = $1`, [
        order.uuid,
        `2026-03-0${index + 1}T22:30:00Z`,
      ]);
    }
  });

  afterAll(async () => {
    await t?.close();
  });

  it('one row per order, every status, oldest first, with the headers of a download', async () => {
    const res = await t.http
      .get(csvPath())
      .query({ from: '2026-03-01', to: '2026-03-31' })
      .set(owner.headers)
      .buffer(true)
      .parse((response, done) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => done(null, text));
      });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(
      'attachment; filename="orders-2026-03-01-2026-03-31.csv"',
    );
    const text = res.body as string;
    expect(text.endsWith('\r\n')).toBe(true);
    const [header, ...rows] = parseCsv(text);
    expect(header).toEqual(ORDER_COLUMNS);
    expect(rows.map((row) => row[1])).toEqual(placed.map((order) => order.uuid));
    const stored = await t.dataSource.query(
      `SELECT uuid::text, order_reference FROM orders WHERE business_uuid = $1`,
      [business],
    );
    const reference = new Map(stored.map((row: any) => [row.uuid, row.order_reference]));
    rows.forEach((row, index) => {
      const record = Object.fromEntries(ORDER_COLUMNS.map((column, i) => [column, row[i]]));
      expect(record).toEqual({
        order_reference: reference.get(placed[index].uuid),
        uuid: placed[index].uuid,
        created_at: `2026-03-0${index + 1}T23:30:00+01:00`,
        status: index === 1 ? 'rejected' : 'pending',
        payment_processor: 'cash',
        payment_status: 'unpaid',
        payment_channels: '',
        fulfilment_type: 'pickup',
        requested_time: '',
        customer_email_address: placed[index].email,
        customer_phone_number: PHONES[index][1],
        items_subtotal: '31.50',
        delivery_fee: '0.00',
        discount: '0.00',
        discount_code: '',
        service_charge: '0.00',
        tax: '0.00',
        tip: '0.50',
        total: '31.50',
        refunded: '0.00',
        channel: 'online',
      });
    });
  });

  it('one row per line with lines=true, the item title quoted and neutralised', async () => {
    const [header, ...rows] = await csv(manager, {
      from: '2026-03-02',
      to: '2026-03-03',
      lines: 'true',
    });
    expect(header).toEqual([...ORDER_COLUMNS, ...LINE_COLUMNS]);
    const [jollof, suya] = catalog.items;
    expect(rows.map((row) => [row[1], ...row.slice(ORDER_COLUMNS.length)])).toEqual([
      [
        placed[1].uuid,
        jollof.uuid,
        `'=Jollof, "smoky"\nwith plantain`,
        'Size: Large',
        '1',
        '11.50',
        '11.50',
      ],
      [placed[1].uuid, suya.uuid, 'Suya', '', '2', '10.00', '20.00'],
      [
        placed[2].uuid,
        jollof.uuid,
        `'=Jollof, "smoky"\nwith plantain`,
        'Size: Large',
        '1',
        '11.50',
        '11.50',
      ],
      [placed[2].uuid, suya.uuid, 'Suya', '', '2', '10.00', '20.00'],
    ]);
  });

  it('a period without orders is the header alone', async () => {
    const rows = await csv(owner, { from: '2025-01-01', to: '2025-01-31' });
    expect(rows).toEqual([ORDER_COLUMNS]);
  });

  describe('many orders, read in batches', () => {
    const COPIES = 4500;

    beforeAll(async () => {
      // Copies of the first order straight into the database, in pairs that share a created_at
      // so that the order within the same instant (by uuid) is exercised too.
      const columns: Array<{ column_name: string }> = await t.dataSource.query(
        `SELECT column_name FROM information_schema.columns
          WHERE table_name = 'orders' AND table_schema = current_schema()
            AND column_name NOT IN ('uuid', 'order_reference', 'created_at')`,
      );
      const rest = columns.map((c) => `"${c.column_name}"`).join(', ');
      await t.dataSource.query(
        `INSERT INTO orders (uuid, order_reference, created_at, ${rest})
         SELECT gen_random_uuid(), 'BULK' || lpad(g::text, 6, '0'),
                '2026-04-01T00:00:00Z'::timestamptz + (g / 2) * interval '7 minutes', ${rest}
           FROM orders, generate_series(1, $2::int) AS g
          WHERE orders.uuid = $1`,
        [placed[0].uuid, COPIES],
      );
      await t.dataSource.query(
        `INSERT INTO order_lines (uuid, order_uuid, position, item_uuid, title_name, category,
           unit_price_amount, options, quantity, line_total, item_note)
         SELECT gen_random_uuid(), o.uuid, l.position, l.item_uuid, l.title_name, l.category,
                l.unit_price_amount, l.options, l.quantity, l.line_total, l.item_note
           FROM orders o JOIN order_lines l ON l.order_uuid = $1
          WHERE o.order_reference LIKE 'BULK%'`,
        [placed[0].uuid],
      );
      // A third line each: batches of line rows then end inside an order's lines.
      await t.dataSource.query(
        `INSERT INTO order_lines (uuid, order_uuid, position, item_uuid, title_name, category,
           unit_price_amount, options, quantity, line_total, item_note)
         SELECT gen_random_uuid(), l.order_uuid, 2, l.item_uuid, 'Third ' || o.order_reference,
                l.category, l.unit_price_amount, l.options, l.quantity, l.line_total, l.item_note
           FROM order_lines l JOIN orders o ON o.uuid = l.order_uuid
          WHERE o.order_reference LIKE 'BULK%' AND l.position = 0`,
      );
    });

    it('every order exactly once, in (created_at, uuid) order', async () => {
      const [, ...rows] = await csv(owner, { from: '2026-04-01', to: '2026-04-30' });
      const expected: Array<{ uuid: string; created_at: string }> = await t.dataSource.query(
        `SELECT uuid::text AS uuid FROM orders WHERE order_reference LIKE 'BULK%'
          ORDER BY created_at, uuid`,
      );
      expect(rows).toHaveLength(COPIES);
      expect(rows.map((row) => row[1])).toEqual(expected.map((row) => row.uuid));
      expect(rows[0][2]).toBe('2026-04-01T01:00:00+01:00');
    });

    // R74: flat exports.
    it('and every line of them exactly once, in order, read in batches of line rows', async () => {
      const [header, ...rows] = await csv(owner, {
        from: '2026-04-01',
        to: '2026-04-30',
        lines: 'true',
      });
      expect(rows).toHaveLength(COPIES * 3);
      const orders: Array<{ uuid: string; order_reference: string }> = await t.dataSource.query(
        `SELECT uuid::text AS uuid, order_reference FROM orders
          WHERE order_reference LIKE 'BULK%' ORDER BY created_at, uuid`,
      );
      const title = header.indexOf('title_name');
      expect(rows.map((row) => row[1])).toEqual(orders.flatMap((o) => [o.uuid, o.uuid, o.uuid]));
      // Each order's lines in cart order: its third line last.
      orders.forEach((order, index) => {
        expect(rows[index * 3 + 2][title]).toBe(`Third ${order.order_reference}`);
      });
    });

    it('a client that goes away mid-file leaves the database free for the next request', async () => {
      const url = new URL(csvPath(), t.baseUrl);
      url.search = new URLSearchParams({
        from: '2026-04-01',
        to: '2026-04-30',
        lines: 'true',
      }).toString();
      await new Promise<void>((resolve, reject) => {
        const request = http.get(url, { headers: owner.headers }, (res) => {
          res.once('data', () => {
            request.destroy();
            resolve();
          });
        });
        request.on('error', (error) =>
          error.message.includes('aborted') ? resolve() : reject(error),
        );
      });
      const res = await t.http
        .get(`${t.core}/businesses/${business}/reports/sales`)
        .query({ from: '2026-04-01', to: '2026-04-30' })
        .set(owner.headers);
      expect(expectOk(res).totals.open_orders).toBe(COPIES);
    });
  });

  describe('refusals answer in the error envelope, nothing streamed', () => {
    const month = { from: '2026-03-01', to: '2026-03-31' };

    it('staff: 403', async () => {
      expectError(await t.http.get(csvPath()).query(month).set(staff.headers), 403, 'FORBIDDEN');
    });

    it('an outsider: 404', async () => {
      expectError(await t.http.get(csvPath()).query(month).set(outsider.headers), 404, 'NOT_FOUND');
    });

    it('a malformed date, a to before from, lines not a boolean: 400 on the field', async () => {
      for (const [query, field] of [
        [{ from: '2026-3-1', to: '2026-03-31' }, 'from'],
        [{ from: '2026-03-31', to: '2026-03-01' }, 'to'],
        [{ ...month, lines: 'yes' }, 'lines'],
      ] as const) {
        const res = await t.http.get(csvPath()).query(query).set(owner.headers);
        expectError(res, 400, 'VALIDATION_FAILED');
        expect(res.body.error.details.map((d: any) => d.field)).toContain(field);
      }
    });

    it('more than 366 days: 422', async () => {
      const res = await t.http
        .get(csvPath())
        .query({ from: '2025-01-01', to: '2026-01-02' })
        .set(owner.headers);
      expectError(res, 422, 'UNPROCESSABLE');
    });
  });
});
