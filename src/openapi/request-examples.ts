/**
 * A worked example of each JSON request body, by operation id, shown in the
 * OpenAPI document (and so in Swagger UI and the generated clients' docs).
 * Operations whose DTO properties carry their own `example` need no entry.
 */
type Examples = Record<string, { summary: string; value: unknown }>;

const one = (summary: string, value: unknown): Examples => ({ default: { summary, value } });

const BUSINESS_UUID = '0b5e6f3a-8f0e-4c59-9b7f-3f1d2a4c5e61';
const MENU_UUID = '5d2c9e7a-1b4f-4a8e-8c3d-6e9f0a1b2c3d';
const ITEM_UUID = '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d';
const USER_UUID = '3c1d2e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f';
const ORDER_UUID = '7e6d5c4b-3a29-4f18-9e07-d6c5b4a39281';
const LINE_UUID = '2f3e4d5c-6b7a-4898-a7b6-c5d4e3f2a1b0';

export const REQUEST_EXAMPLES: Record<string, Examples> = {
  registerUser: one('A new owner', {
    email: 'kemi@tryout.example',
    password: 'correct-horse',
    password_confirmation: 'correct-horse',
    name: 'Kemi Ade',
    username: 'kemi-tryout',
    meta_data: { phone: '+2348000000000' },
  }),
  loginUser: one('Email and password', { email: 'kemi@tryout.example', password: 'correct-horse' }),
  requestPasswordReset: one('The account’s address', { email_address: 'kemi@tryout.example' }),
  resetPassword: one('The emailed code and a new password', {
    email_address: 'kemi@tryout.example',
    token_to_reset_password: '48392017',
    new_password: 'new-horse-battery',
    new_password_confirmation: 'new-horse-battery',
  }),
  requestPasswordChange: one('Nothing needed; the address is optional', {
    email_address: 'kemi@tryout.example',
  }),
  changePassword: one('The emailed code, the old and the new password', {
    token_to_change_password: '61520493',
    old_password: 'correct-horse',
    new_password: 'new-horse-battery',
    new_password_confirmation: 'new-horse-battery',
  }),
  requestEmailVerification: one('Nothing needed; the address is optional', {}),
  verifyEmailAddress: one('The emailed code', { token_to_verify_email_address: '20831175' }),
  identityProviderCallback: one('Whatever the provider sends', { code: 'abc' }),
  updateUserProfile: one('A new display name', { name: 'Kemi A.' }),
  createEntity: {
    business: {
      summary: 'A business (type svc_business)',
      value: {
        request_id: '1716200000000',
        meta_key: 'kemi-kitchen',
        title_name: 'Kemi’s Kitchen',
        description: 'Small plates by the sea',
        status: 'enabled',
        extra_data: {
          business_address: '12 Marina Road, Lagos',
          contact_email: 'hello@kemi-kitchen.example',
          country_of_registration: 'NG',
        },
      },
    },
    menu: {
      summary: 'A menu of that business (type svc_business_menu)',
      value: {
        meta_key: 'dinner',
        title_name: 'Dinner',
        parent_entity_type: 'svc_business',
        parent_entity_uuid: BUSINESS_UUID,
        extra_data: {
          menu_base_wallet_ticker: 'NGN',
          menu_base_wallet_ticker_symbol: '₦',
          menu_featured_categories: ['Mains', 'Drinks'],
          menu_checkout_payments_providers: {
            bank_transfer: { title: 'Bank transfer', description: 'Pay to Kemi’s Kitchen Ltd' },
          },
        },
      },
    },
    item: {
      summary: 'An item of that menu (type svc_business_menu_item)',
      value: {
        title_name: 'Jollof rice',
        parent_entity_type: 'svc_business_menu',
        parent_entity_uuid: MENU_UUID,
        extra_data: {
          category: 'Mains',
          unit_price_amount: '3500.00',
          minimum_quantity_per_order: 1,
          maximum_quantity_per_order: 10,
          sort_position: 1,
        },
      },
    },
  },
  updateEntity: one('Disable a record and change its title', {
    title_name: 'Dinner (from 6 pm)',
    status: 'disabled',
  }),
  placeOrder: one('Two units of one item, paid in cash', {
    menu_uuid: MENU_UUID,
    amount: '7000.00',
    payment_processor: 'cash',
    customer_email_address: 'guest@example.com',
    customer_phone_number: '+2348000000001',
    customer_requested_order_email_copy: true,
    general_note: 'No onions, please',
    delivery_data: { delivery_identifier: '', delivery_address: '' },
    onpremise_data: {
      customer_onpremise_location_type: 'table',
      customer_onpremise_location_number: '7',
      customer_onpremise_location: 'table_7',
    },
    cart_items: [{ uuid: ITEM_UUID, quantity: 2, item_note: 'Extra spicy' }],
  }),
  placeStaffOrder: one('A waiter’s round for table 7, placed accepted', {
    menu_uuid: MENU_UUID,
    amount: '7000.00',
    payment_processor: 'cash',
    channel: 'waiter',
    accept: true,
    onpremise_data: {
      customer_onpremise_location_type: 'table',
      customer_onpremise_location_number: '7',
      customer_onpremise_location: 'table_7',
    },
    cart_items: [{ uuid: ITEM_UUID, quantity: 2 }],
  }),
  splitTab: {
    equal: { summary: 'Three equal shares', value: { by: 'equal', parts: 3 } },
    items: {
      summary: 'By items: who had what',
      value: {
        by: 'items',
        shares: [
          { lines: [{ order_uuid: ORDER_UUID, line_uuid: LINE_UUID, quantity: 1 }] },
          { lines: [{ order_uuid: ORDER_UUID, line_uuid: LINE_UUID, quantity: 1 }] },
        ],
      },
    },
    amount: {
      summary: 'By amounts that add up to what is due',
      value: { by: 'amount', amounts: ['4000.00', '3000.00'] },
    },
  },
  splitGuestTab: one('Three equal shares, from the tab page', { by: 'equal', parts: 3 }),
  payTabShare: one('Cash for one share, with a tip', { method: 'cash', tip_amount: '200.00' }),
  payGuestTabShare: {
    ussd: {
      summary: 'Pay a share by USSD',
      value: { channel: 'ussd', bank: '737', tip_amount: '100.00' },
    },
    card: { summary: 'Open a card checkout for a share', value: { method: 'paystack' } },
  },
  quoteDelivery: {
    point: {
      summary: 'A guest’s pin in Lekki, with the cart so far',
      value: {
        menu_uuid: MENU_UUID,
        latitude: 6.4431,
        longitude: 3.4683,
        items_subtotal: '12000.00',
      },
    },
    area: {
      summary: 'A guest who names their area',
      value: { menu_uuid: MENU_UUID, area: 'Ikoyi' },
    },
  },
  quoteOrder: one('Price a dine-in order with a code and a tip before placing it', {
    menu_uuid: MENU_UUID,
    payment_processor: 'cash',
    customer_email_address: 'guest@example.com',
    onpremise_data: {
      customer_onpremise_location_type: 'table',
      customer_onpremise_location_number: '7',
      customer_onpremise_location: 'table_7',
    },
    discount_code: 'WELCOME10',
    tip_amount: '500.00',
    cart_items: [{ uuid: ITEM_UUID, quantity: 2 }],
  }),
  createDiscount: one('10 % off orders of 5000 or more, 100 uses, once per guest', {
    code: 'WELCOME10',
    kind: 'percent',
    value: '10',
    minimum_order_amount: '5000.00',
    starts_at: '2026-12-01T00:00:00Z',
    ends_at: '2027-01-01T00:00:00Z',
    max_redemptions: 100,
    max_redemptions_per_email: 1,
  }),
  updateDiscount: one('Pause a code', { enabled: false }),
  updateOrder: one('Accept a pending order', {
    status: 'accepted',
    expected_status: 'pending',
    owner_note: 'Ready in 20 minutes',
  }),
  setAvailability: {
    busy: {
      summary: 'Busy for two hours: every new order takes 20 minutes longer',
      value: { mode: 'busy', extra_prep_minutes: 20, until: '2026-12-24T21:00:00Z' },
    },
    paused: {
      summary: 'Paused until changed: no order for now, orders for later still',
      value: { mode: 'paused' },
    },
    open: { summary: 'Back to normal', value: { mode: 'open' } },
  },
  inviteMember: one('Invite the kitchen as staff', {
    email: 'kitchen@bistro.example',
    role: 'staff',
  }),
  changeMemberRole: one('Make a member manager', { role: 'manager' }),
  acceptInvitation: one('The token of the emailed accept link', {
    token: 'Vh3bq0S1m2yq8dFzY0C6nQ4b2cUeWk7tJx1pLr9aZs8',
  }),
  markNotificationsRead: one('Mark two notifications read (send no uuids to mark all)', {
    uuids: [USER_UUID, ITEM_UUID],
  }),
  saveNotificationSetting: one('A phone’s push settings', {
    device_id: 'pixel-8-kemi',
    platform: 'android',
    label: 'Kemi’s phone',
    enable_notification: true,
    providers: { fcm: { token: 'fcm-registration-token' } },
  }),
  createUploadUrls: one('One logo', {
    files: [
      {
        file_name: 'logo.png',
        file_type: 'image/png',
        file_size: 20480,
        visibility: 'public',
        directory: `business/logo/${USER_UUID}`,
      },
    ],
    expires_in: 3600,
  }),
};
REQUEST_EXAMPLES.createUploadUrlsAws = REQUEST_EXAMPLES.createUploadUrls;
