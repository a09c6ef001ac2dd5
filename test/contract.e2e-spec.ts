import { randomUUID } from 'node:crypto';
import { apiClient } from './support/api-client';
import { lastMailTo, tokenIn } from './support/mail';
import { startTestApp, TestApp } from './support/test-app';

/**
 * The owner's and the guest's whole journey through the client typed from the
 * committed OpenAPI document: if the contract and the service drift apart,
 * this file stops compiling (npm run lint type-checks it) or fails here.
 */
describe('the published contract, end to end', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t?.close());

  it('sign-up, catalogue, storefront, guest order, owner inbox and update', async () => {
    const guest = apiClient(t);
    const suffix = randomUUID().slice(0, 8);
    const email = `chef-${suffix}@example.test`;

    const registered = await guest.POST('/public/api/v1/svc/user/register', {
      body: {
        email,
        password: 'pass-1234',
        password_confirmation: 'pass-1234',
        name: 'Chef',
        username: `chef_${suffix}`,
      },
    });
    expect(registered.response.status).toBe(201);
    expect(registered.data?.data.email_verified_at).toBeNull();

    const login = await guest.POST('/public/api/v1/svc/user/login', {
      body: { email, password: 'pass-1234' },
    });
    expect(login.response.status).toBe(200);
    const session = login.data!.data;
    expect(session.token_type).toBe('Bearer');
    const owner = apiClient(t, session.access_token);

    const verify = await owner.POST('/public/api/v1/svc/user/verify-email-address', { body: {} });
    expect(verify.response.status).toBe(200);
    const code = tokenIn(await lastMailTo(t, email, /verif/i));
    const verified = await owner.POST('/public/api/v1/svc/user/verify-email-address/validate', {
      body: { token_to_verify_email_address: code },
    });
    expect(verified.data?.data.email_verified_at).toEqual(expect.any(String));

    const entity = '/public/api/v1/svc/smart-meta-manager/entity/{type}' as const;
    const business = await owner.POST(entity, {
      params: { path: { type: 'svc_business' } },
      body: {
        request_id: '1716200000000',
        meta_key: `bistro-${suffix}`,
        title_name: 'Bistro',
        status: 'enabled',
        extra_data: { contact_email: email, business_address: '1 Main St' },
      },
    });
    expect(business.response.status).toBe(201);
    const businessUuid = business.data!.data.uuid;

    const menu = await owner.POST(entity, {
      params: { path: { type: 'svc_business_menu' } },
      body: {
        meta_key: 'dinner',
        title_name: 'Dinner',
        parent_entity_type: 'svc_business',
        parent_entity_uuid: businessUuid,
        extra_data: {
          menu_base_wallet_ticker: 'NGN',
          menu_checkout_payments_providers: { bank_transfer: { title: 'Bank transfer' } },
        },
      },
    });
    expect(menu.response.status).toBe(201);
    const menuUuid = menu.data!.data.uuid;

    const itemUuids: string[] = [];
    for (const [title, price, position] of [
      ['Soup', '19.99', '2'],
      ['Bread', '0.10', '10'],
      ['Delivery', '5.00', '1'],
    ] as const) {
      const item = await owner.POST(entity, {
        params: { path: { type: 'svc_business_menu_item' } },
        body: {
          title_name: title,
          parent_entity_type: 'svc_business_menu',
          parent_entity_uuid: menuUuid,
          extra_data: {
            category: title === 'Delivery' ? 'Delivery' : 'Food',
            unit_price_amount: price,
            minimum_quantity_per_order: '1',
            maximum_quantity_per_order: '5',
            sort_position: position,
          },
        },
      });
      expect(item.response.status).toBe(201);
      itemUuids.push(item.data!.data.uuid);
    }

    const listed = await guest.GET(entity, {
      params: {
        path: { type: 'svc_business_menu_item' },
        query: {
          parent_entity_type: 'svc_business_menu',
          parent_entity_uuid: menuUuid,
          per_page: 20000000,
          sort_by: 'extra_data.sort_position',
          sort_order: 'asc',
        },
      },
    });
    expect(listed.data?.data.map((item) => item.title_name)).toEqual(['Delivery', 'Soup', 'Bread']);
    expect(listed.data?.meta).toMatchObject({ page: 1, per_page: 1000, total: 3, last_page: 1 });

    const storefront = await guest.GET(
      '/public/api/v1/svc/storefront/{business_meta_key}/menu/{menu_meta_key}',
      { params: { path: { business_meta_key: `BISTRO-${suffix}`, menu_meta_key: 'dinner' } } },
    );
    expect(storefront.data?.data.items.map((item) => item.uuid)).toEqual(
      listed.data?.data.map((item) => item.uuid),
    );

    const key = randomUUID();
    const orderBody = {
      menu_uuid: menuUuid,
      amount: 64.97, // 19.99 × 3 + 5.00 delivery
      payment_processor: 'bank_transfer' as const,
      customer_email_address: 'guest@example.test',
      customer_requested_order_email_copy: true,
      onpremise_data: { customer_onpremise_location: '_' },
      cart_items: [
        { uuid: itemUuids[0], quantity: 3, item_note: 'no pepper' },
        { uuid: itemUuids[2], quantity: 1 },
      ],
    };
    const placed = await guest.POST('/plugins/svc/svc-init/order', {
      params: { header: { 'Idempotency-Key': key } },
      body: orderBody,
    });
    expect(placed.response.status).toBe(201);
    const order = placed.data!.data;
    expect(order).toMatchObject({ status: 'pending', payment_status: 'unpaid', amount: '64.97' });

    const replayed = await guest.POST('/plugins/svc/svc-init/order', {
      params: { header: { 'Idempotency-Key': key } },
      body: orderBody,
    });
    expect(replayed.response.headers.get('idempotent-replayed')).toBe('true');
    expect(replayed.data?.data.uuid).toBe(order.uuid);

    const inbox = await owner.GET('/public/api/v1/svc/orders', {
      params: { query: { status: 'pending' } },
    });
    expect(inbox.data?.data.map((entry) => entry.uuid)).toEqual([order.uuid]);

    const notifications = await owner.GET('/public/api/v1/svc/notification/user/{user_uuid}', {
      params: { path: { user_uuid: session.uuid } },
    });
    expect(notifications.data?.meta).toMatchObject({ unread: 1 });

    const accepted = await owner.PUT('/plugins/svc/svc-init/admin/order/update/{order_id}', {
      params: { path: { order_id: order.uuid } },
      body: { status: 'accepted', expected_status: 'pending' },
    });
    expect(accepted.data?.data.status).toBe('accepted');

    const refused = await owner.PUT('/plugins/svc/svc-init/admin/order/update/{order_id}', {
      params: { path: { order_id: order.uuid } },
      body: { status: 'pending' },
    });
    expect(refused.response.status).toBe(422);
    expect(refused.error?.error.code).toBe('UNPROCESSABLE');

    const detail = await owner.GET('/public/api/v1/svc/orders/{uuid}', {
      params: { path: { uuid: order.uuid } },
    });
    expect(detail.data?.data.history?.map((entry) => entry.to)).toEqual(
      expect.arrayContaining(['pending', 'accepted']),
    );
  });
});
