import { randomBytes } from 'node:crypto';
import type { Response } from 'supertest';
import { expectError, expectOk } from './expect';
import { TestUser } from './factory';
import { TestApp } from './test-app';

/** A record as the API answers it. */
export interface EntityResponse {
  uuid: string;
  entity_type: string;
  request_id: string | null;
  slug: string | null;
  meta_key: string | null;
  meta_value: string | null;
  title_name: string | null;
  description: string | null;
  entity_featured_url: string | null;
  status: string;
  owned_by: string;
  parent_entity_type: string | null;
  parent_entity_uuid: string | null;
  extra_data: Record<string, any>;
  trashed_at: string | null;
  created_at: string;
  updated_at: string;
}

export type EntitySuffix = 'business' | 'business_menu' | 'business_menu_item';

/** Fields of a create body; `extra_data` is merged over the factory's defaults. */
export type EntityOverrides = Record<string, unknown> & { extra_data?: Record<string, unknown> };

/** `{ns}_business`, … for this app's namespace. */
export function entityType(t: TestApp, suffix: EntitySuffix): string {
  return `${t.config.namespace}_${suffix}`;
}

/** `/public/api/v1/{ns}/smart-meta-manager/entity/{type}` plus optional sub-path. */
export function entityPath(t: TestApp, suffix: EntitySuffix, ...rest: string[]): string {
  return [`${t.core}/smart-meta-manager/entity/${entityType(t, suffix)}`, ...rest].join('/');
}

function unique(prefix: string): string {
  return `${prefix}-${randomBytes(4).toString('hex')}`;
}

function uuidOf(parent: string | { uuid: string }): string {
  return typeof parent === 'string' ? parent : parent.uuid;
}

async function create(
  t: TestApp,
  user: TestUser,
  suffix: EntitySuffix,
  body: Record<string, unknown>,
): Promise<EntityResponse> {
  const res = await t.http.post(entityPath(t, suffix)).set(user.headers).send(body);
  return expectOk<EntityResponse>(res, 201);
}

/** A public business of `user` with a unique meta_key, created through the API. */
export function newBusiness(
  t: TestApp,
  user: TestUser,
  overrides: EntityOverrides = {},
): Promise<EntityResponse> {
  const name = unique('business');
  const { extra_data, ...fields } = overrides;
  return create(t, user, 'business', {
    meta_key: name,
    meta_value: '',
    title_name: `Business ${name}`,
    description: 'A test business',
    status: 'enabled',
    ...fields,
    extra_data: {
      business_address: '1 Test Street',
      contact_email: 'owner@example.test',
      enable_on_portal_listing: true,
      country_of_registration: 'NG',
      ...extra_data,
    },
  });
}

/** A public menu under `business` (NGN, no extra payment providers: cash only). */
export function newMenu(
  t: TestApp,
  user: TestUser,
  business: string | { uuid: string },
  overrides: EntityOverrides = {},
): Promise<EntityResponse> {
  const name = unique('menu');
  const { extra_data, ...fields } = overrides;
  return create(t, user, 'business_menu', {
    meta_key: name,
    slug: name,
    title_name: `Menu ${name}`,
    status: 'enabled',
    parent_entity_type: entityType(t, 'business'),
    parent_entity_uuid: uuidOf(business),
    ...fields,
    extra_data: {
      menu_base_wallet_ticker: 'NGN',
      menu_base_wallet_ticker_symbol: '₦',
      menu_primary_color: '#aa3300',
      enable_dark_mode: false,
      menu_featured_categories: ['Food'],
      menu_checkout_payments_providers: [],
      ...extra_data,
    },
  });
}

/** A public item under `menu`: price "10.00", quantity 1–10, sort_position 0 unless overridden. */
export function newItem(
  t: TestApp,
  user: TestUser,
  menu: string | { uuid: string },
  overrides: EntityOverrides = {},
): Promise<EntityResponse> {
  const name = unique('item');
  const { extra_data, ...fields } = overrides;
  return create(t, user, 'business_menu_item', {
    meta_key: name,
    title_name: `Item ${name}`,
    status: 'enabled',
    parent_entity_type: entityType(t, 'business_menu'),
    parent_entity_uuid: uuidOf(menu),
    ...fields,
    extra_data: {
      tag: '',
      category: 'Food',
      unit_price_amount: '10.00',
      minimum_quantity_per_order: 1,
      maximum_quantity_per_order: 10,
      sort_position: 0,
      ...extra_data,
    },
  });
}

export interface Catalog {
  business: EntityResponse;
  menu: EntityResponse;
  items: EntityResponse[];
}

/** A public business with one public menu and one item per entry of `items` (overrides each). */
export async function newCatalog(
  t: TestApp,
  user: TestUser,
  options: {
    business?: EntityOverrides;
    menu?: EntityOverrides;
    items?: EntityOverrides[];
  } = {},
): Promise<Catalog> {
  const business = await newBusiness(t, user, options.business);
  const menu = await newMenu(t, user, business, options.menu);
  const items: EntityResponse[] = [];
  for (const item of options.items ?? [{}]) items.push(await newItem(t, user, menu, item));
  return { business, menu, items };
}

/** How many rows the entities table holds. */
export async function countEntities(t: TestApp): Promise<number> {
  const rows = await t.dataSource.query('SELECT count(*)::int AS n FROM entities');
  return rows[0].n;
}

/** A record's row as stored, every column. */
export async function storedEntity(t: TestApp, uuid: string): Promise<Record<string, any>> {
  const rows = await t.dataSource.query('SELECT * FROM entities WHERE uuid = $1', [uuid]);
  return rows[0];
}

/** Runs `act`, expects the refusal, and checks that the entities table did not change. */
export async function refusedWithoutEntityChange(
  t: TestApp,
  act: () => Promise<Response>,
  status: number,
  code: string,
): Promise<Response> {
  const before = await t.dataSource.query('SELECT * FROM entities ORDER BY uuid');
  const res = await act();
  expectError(res, status, code);
  expect(await t.dataSource.query('SELECT * FROM entities ORDER BY uuid')).toEqual(before);
  return res;
}

/** PUT of a record as `user`, for tests that change one thing. */
export function putEntity(
  t: TestApp,
  user: TestUser,
  suffix: EntitySuffix,
  uuid: string,
  body: object,
) {
  return t.http
    .put(entityPath(t, suffix, uuid))
    .set(user.headers)
    .send(body);
}
