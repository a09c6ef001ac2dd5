/**
 * The `extra_data` of each entity type as OpenAPI schemas: the keys the
 * per-type rules of the entity registry check, with their types and rules.
 * Other keys are kept as sent (extra_data is the extensible part), so every
 * schema allows additional properties. A key added to the registry belongs
 * here too (a unit test compares the two).
 */
type Schema = Record<string, unknown>;

const nullable = (schema: Schema): Schema => ({ ...schema, nullable: true });
const str = (description: string, example?: unknown): Schema =>
  nullable({ type: 'string', description, ...(example !== undefined ? { example } : {}) });
const flag = (description: string, example?: boolean): Schema =>
  nullable({
    type: 'boolean',
    description: `${description} The strings "true" and "false" are accepted and stored as booleans.`,
    ...(example !== undefined ? { example } : {}),
  });
const email = (description: string, example: string): Schema =>
  nullable({
    type: 'string',
    format: 'email',
    description: `${description} An email address, or empty.`,
    example,
  });
// No `nullable` beside `oneOf` (OpenAPI 3.0 ties it to `type`); null still means "not set".
const integer = (description: string, example: number, minimum?: number): Schema => ({
  oneOf: [
    { type: 'integer', ...(minimum !== undefined ? { minimum } : {}) },
    { type: 'string', pattern: '^-?\\d{1,16}$' },
  ],
  description: `${description} A whole number, or a string holding one; stored as a number.`,
  example,
});

export const BUSINESS_EXTRA_DATA: Schema = {
  type: 'object',
  description: 'The `extra_data` of a business (`{ns}_business`). Other keys are kept as sent.',
  additionalProperties: true,
  properties: {
    business_address: str('Street address shown to guests.', '12 Marina Road, Lagos'),
    contact_email: email('Where the business is reached.', 'hello@kemi-kitchen.example'),
    enable_on_portal_listing: flag('Whether the business may be listed in a public directory.'),
    country_of_registration: str('Country the business is registered in.', 'NG'),
    paystack_subaccount_code: str(
      'Paystack subaccount the card payments of this business settle to (sent with each checkout).',
      'ACCT_8f4s1eq7ml6rlzj',
    ),
    accepting_orders: flag(
      'The owner’s switch for a busy kitchen: false refuses new orders whatever the opening hours say. Default true.',
      true,
    ),
    opening_hours: nullable({
      type: 'object',
      description:
        'When guests may order. `timezone` is an IANA zone; `weekly` maps `mon`…`sun` to a list ' +
        'of `["HH:MM", "HH:MM"]` intervals (an end of `24:00` is allowed, an end before its start ' +
        'runs past midnight, a day left out or `[]` is closed); `closures` are whole local days, ' +
        '`from` ≤ `to`. Without it the business is always open. Placement while closed is ' +
        '422 with `opens_at`; the storefront answers `open_now` and `next_change_at`.',
      required: ['timezone'],
      properties: {
        timezone: { type: 'string', example: 'Africa/Lagos' },
        weekly: {
          type: 'object',
          additionalProperties: {
            type: 'array',
            items: {
              type: 'array',
              items: { type: 'string', pattern: '^([01]\\d|2[0-3]):[0-5]\\d$|^24:00$' },
              minItems: 2,
              maxItems: 2,
            },
          },
        },
        closures: {
          type: 'array',
          items: {
            type: 'object',
            required: ['from', 'to'],
            properties: {
              from: { type: 'string', format: 'date' },
              to: { type: 'string', format: 'date' },
              note: { type: 'string' },
            },
          },
        },
      },
      example: {
        timezone: 'Africa/Lagos',
        weekly: { mon: [['08:00', '22:00']], fri: [['18:00', '02:00']], sun: [] },
        closures: [{ from: '2026-12-24', to: '2026-12-26', note: 'Christmas' }],
      },
    }),
    pricing: nullable({
      type: 'object',
      additionalProperties: true,
      description:
        'How orders are priced beyond their items; each part may be absent (none of it), and ' +
        'without `pricing` the total is the items alone. Rates are percentages from 0 to 100 as ' +
        'decimal text with at most 4 decimals. `tax.inclusive` (default false) means the prices ' +
        'already hold the tax; `tax.applies_to_delivery` (default false) taxes the delivery fee too. ' +
        '`service_charge.modes` lists the fulfilment types it applies to (default all three). ' +
        '`tips.presets_percent` is at most 5 numbers from 0 to 100 for the storefront to offer.',
      properties: {
        tax: {
          type: 'object',
          required: ['rate_percent'],
          properties: {
            label: { type: 'string', maxLength: 64 },
            rate_percent: { type: 'string', pattern: '^\\d{1,3}(\\.\\d{1,4})?$' },
            inclusive: { type: 'boolean', default: false },
            applies_to_delivery: { type: 'boolean', default: false },
          },
        },
        service_charge: {
          type: 'object',
          required: ['rate_percent'],
          properties: {
            label: { type: 'string', maxLength: 64 },
            rate_percent: { type: 'string', pattern: '^\\d{1,3}(\\.\\d{1,4})?$' },
            modes: {
              type: 'array',
              items: { type: 'string', enum: ['dine_in', 'pickup', 'delivery'] },
              uniqueItems: true,
            },
          },
        },
        tips: {
          type: 'object',
          properties: {
            enabled: { type: 'boolean', default: false },
            presets_percent: {
              type: 'array',
              maxItems: 5,
              items: { type: 'number', minimum: 0, maximum: 100 },
            },
          },
        },
      },
      example: {
        tax: { label: 'VAT', rate_percent: '7.5', inclusive: false, applies_to_delivery: false },
        service_charge: { label: 'Service', rate_percent: '10', modes: ['dine_in'] },
        tips: { enabled: true, presets_percent: [5, 10, 15] },
      },
    }),
  },
};

export const MENU_EXTRA_DATA: Schema = {
  type: 'object',
  description: 'The `extra_data` of a menu (`{ns}_business_menu`). Other keys are kept as sent.',
  additionalProperties: true,
  properties: {
    menu_base_wallet_ticker: str(
      'The menu’s currency: an ISO 4217 code, or a name with the code in parentheses.',
      'NGN',
    ),
    menu_base_wallet_ticker_symbol: str('The currency symbol shown with prices.', '₦'),
    menu_primary_color: str('Storefront accent colour.', '#E4572E'),
    enable_dark_mode: flag('Storefront theme.'),
    menu_featured_categories: nullable({
      type: 'array',
      items: { type: 'string' },
      description: 'Item categories shown first, in order.',
      example: ['Mains', 'Drinks'],
    }),
    menu_checkout_payments_providers: {
      oneOf: [
        { type: 'array', items: {} },
        { type: 'object', additionalProperties: true },
      ],
      description:
        'The payment methods the menu offers besides cash: an array, or an object keyed by provider ' +
        '(`paystack`, `bank_transfer`) whose values describe it (`title`, `description`, `fee`, ' +
        '`fee_max_amount`; for bank_transfer also `account_name`, `account_number`, `bank_name`). ' +
        'Stored as sent. An order may only use a method other than cash that is listed here. The ' +
        '`paystack` entry may name `channels`, a non-empty list of `card`, `bank`, `ussd`, `qr`, ' +
        '`mobile_money`, `bank_transfer` and `eft`, passed to the checkout (400 naming the path ' +
        'otherwise); without them Paystack offers its defaults.',
      example: {
        bank_transfer: {
          title: 'Bank transfer',
          description: 'Pay to the account below',
          account_name: 'Bistro Ltd',
          account_number: '0123456789',
          bank_name: 'Example Bank',
        },
      },
    },
    support_tab: nullable({
      type: 'object',
      additionalProperties: true,
      description: 'The storefront’s support page.',
      properties: {
        title: str('Heading.'),
        content: str('Text.'),
        nav_button_text: str('Label of the button that opens it.'),
        show_ring_feature_on_support_page: flag('Whether guests can call a waiter from it.'),
      },
    }),
    contact_info: nullable({
      type: 'object',
      additionalProperties: true,
      description: 'Contact details shown on the support page.',
      properties: {
        email_address: email('Contact address.', 'hello@kemi-kitchen.example'),
        mobile_number: str('Phone number.', '+2348000000000'),
        address: str('Postal address.'),
        show_contact_info_on_support_page: flag('Whether to show them.'),
      },
    }),
    fulfilment: nullable({
      type: 'object',
      additionalProperties: true,
      description:
        'How orders are handed over and when. Without it every mode is offered, with no prep time, no minimum and no orders for later. Every key but modes may be left out.',
      required: ['modes'],
      properties: {
        modes: {
          type: 'array',
          minItems: 1,
          uniqueItems: true,
          items: { type: 'string', enum: ['dine_in', 'pickup', 'delivery'] },
        },
        prep_time_minutes: { type: 'integer', minimum: 0, maximum: 1440, example: 20 },
        dine_in: {
          type: 'object',
          additionalProperties: true,
          properties: {
            minimum_order_amount: str(
              'The least the items may come to for dine_in, a non-negative decimal.',
              '15.00',
            ),
          },
        },
        pickup: {
          type: 'object',
          additionalProperties: true,
          properties: {
            minimum_order_amount: str(
              'The least the items may come to for pickup, a non-negative decimal.',
              '15.00',
            ),
          },
        },
        delivery: {
          type: 'object',
          additionalProperties: true,
          properties: {
            minimum_order_amount: str(
              'The least the items may come to for delivery, a non-negative decimal.',
              '15.00',
            ),
          },
        },
        scheduling: {
          type: 'object',
          additionalProperties: true,
          description:
            'Orders for later: slots of slot_minutes (default 15) up to max_days_ahead days ahead (default 7), at most max_orders_per_slot orders each (no cap when absent).',
          properties: {
            enabled: { type: 'boolean' },
            slot_minutes: { type: 'integer', enum: [5, 10, 15, 20, 30, 60] },
            max_days_ahead: { type: 'integer', minimum: 0, maximum: 60 },
            max_orders_per_slot: { type: 'integer', minimum: 1, maximum: 10000 },
          },
        },
      },
    }),
  },
};

export const ITEM_EXTRA_DATA: Schema = {
  type: 'object',
  description:
    'The `extra_data` of a menu item (`{ns}_business_menu_item`). `unit_price_amount`, ' +
    '`minimum_quantity_per_order` and `maximum_quantity_per_order` are required, and the maximum ' +
    'must be at least the minimum. Other keys are kept as sent.',
  additionalProperties: true,
  required: ['unit_price_amount', 'minimum_quantity_per_order', 'maximum_quantity_per_order'],
  properties: {
    tag: str('A short label such as "spicy" or "new".', 'chef’s choice'),
    category: str(
      'The item’s category. An order may hold at most one line whose item has the category `Delivery`.',
      'Mains',
    ),
    unit_price_amount: {
      oneOf: [
        { type: 'string', pattern: '^\\d{1,12}(\\.\\d{1,2})?$' },
        { type: 'number', minimum: 0 },
      ],
      description:
        'Price of one unit: a non-negative decimal with at most 2 decimals. A JSON number is ' +
        'accepted and stored as its string, so prices never pass through binary floats.',
      example: '3500.00',
    },
    minimum_quantity_per_order: integer('Fewest units one cart line may order; at least 0.', 1, 0),
    maximum_quantity_per_order: integer(
      'Most units one cart line may order; at least the minimum.',
      10,
      0,
    ),
    sort_position: integer('Place in the storefront; lower first, then by creation time.', 1),
    available: flag(
      'False marks the item sold out: guests still see it, but a cart line naming it is refused (422). Default true.',
      true,
    ),
    option_groups: nullable({
      type: 'array',
      maxItems: 20,
      description:
        'Sizes, extras and sides. Keys are 1 to 64 of a-z, 0-9, _ and - and are unique (groups within ' +
        'the item, options within the group); 0 ≤ `min_selected` ≤ `max_selected` ≤ the number ' +
        'of options; `price_delta` a non-negative decimal string (a number is stored as its ' +
        'string); at most 20 groups of at most 50 options. A cart line chooses options with ' +
        '`options: [{group, option}]`; its unit price is `unit_price_amount` plus the deltas.',
      items: {
        type: 'object',
        required: ['key', 'options'],
        properties: {
          key: { type: 'string', pattern: '^[a-z0-9_-]{1,64}$' },
          title: { type: 'string' },
          min_selected: { type: 'integer', minimum: 0 },
          max_selected: { type: 'integer', minimum: 0 },
          options: {
            type: 'array',
            maxItems: 50,
            items: {
              type: 'object',
              required: ['key'],
              properties: {
                key: { type: 'string', pattern: '^[a-z0-9_-]{1,64}$' },
                title: { type: 'string' },
                price_delta: { type: 'string', pattern: '^\\d{1,12}(\\.\\d{1,2})?$' },
                available: { type: 'boolean' },
              },
            },
          },
        },
      },
      example: [
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
      ],
    }),
  },
};

/** Schema name, type suffix and schema of each entity type's extra_data. */
export const EXTRA_DATA_SCHEMAS: ReadonlyArray<{ name: string; suffix: string; schema: Schema }> = [
  { name: 'BusinessExtraData', suffix: 'business', schema: BUSINESS_EXTRA_DATA },
  { name: 'MenuExtraData', suffix: 'business_menu', schema: MENU_EXTRA_DATA },
  { name: 'ItemExtraData', suffix: 'business_menu_item', schema: ITEM_EXTRA_DATA },
];
