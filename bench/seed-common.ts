/**
 * The business and menu every scenario's seed starts from, created through
 * the entity API as an owner would: an enabled business registered in
 * Nigeria and an enabled menu of it in NGN.
 */
import { Client } from 'pg';
import { Api, expectStatus } from './seed';

/** The entity API's path for entities of `suffix` (business, business_menu, …). */
export function entityPath(api: Api, suffix: string): string {
  return `/public/api/v1/${api.ns}/smart-meta-manager/entity/${api.ns}_${suffix}`;
}

/** Creates an entity of `suffix` as the owner of `token`; its stored fields. */
export function postEntity(api: Api, token: string, suffix: string, body: unknown): Promise<any> {
  return expectStatus(api, 'POST', entityPath(api, suffix), body, 201, token);
}

/** An enabled business; `extraData` goes beside its country of registration. */
export function createBusiness(
  api: Api,
  token: string,
  metaKey: string,
  title: string,
  extraData: Record<string, unknown> = {},
): Promise<any> {
  return postEntity(api, token, 'business', {
    meta_key: metaKey,
    title_name: title,
    status: 'enabled',
    extra_data: { country_of_registration: 'NG', ...extraData },
  });
}

/**
 * An enabled menu of the business, its slug its meta key, in NGN with no
 * payment providers unless `extraData` says otherwise.
 */
export function createMenu(
  api: Api,
  token: string,
  businessUuid: string,
  metaKey: string,
  title: string,
  extraData: Record<string, unknown> = {},
): Promise<any> {
  return postEntity(api, token, 'business_menu', {
    meta_key: metaKey,
    slug: metaKey,
    title_name: title,
    status: 'enabled',
    parent_entity_type: `${api.ns}_business`,
    parent_entity_uuid: businessUuid,
    extra_data: {
      menu_base_wallet_ticker: 'NGN',
      menu_checkout_payments_providers: [],
      ...extraData,
    },
  });
}

/** An enabled item of the menu, one to ten a line, at `unitPrice`. */
export function createItem(
  api: Api,
  token: string,
  menuUuid: string,
  title: string,
  category: string,
  unitPrice: string,
): Promise<any> {
  return postEntity(api, token, 'business_menu_item', {
    title_name: title,
    status: 'enabled',
    parent_entity_type: `${api.ns}_business_menu`,
    parent_entity_uuid: menuUuid,
    extra_data: {
      category,
      unit_price_amount: unitPrice,
      minimum_quantity_per_order: 1,
      maximum_quantity_per_order: 10,
    },
  });
}

/**
 * Runs `work` in one transaction on a connection of its own (rolled back
 * when it fails), then ANALYZEs `analyze` when given so the measured
 * queries plan with the rows just written.
 */
export async function inSeedTransaction<T>(
  databaseUrl: string,
  work: (client: Client) => Promise<T>,
  analyze?: string,
): Promise<T> {
  const client = new Client({ connectionString: databaseUrl, connectionTimeoutMillis: 10_000 });
  await client.connect();
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    if (analyze) await client.query(`ANALYZE ${analyze}`);
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    await client.end();
  }
}

/** The user who owns the business: the owner of the orders written straight to the database. */
export async function businessOwner(client: Client, businessUuid: string): Promise<string> {
  const { rows } = await client.query('SELECT owned_by AS uuid FROM entities WHERE uuid = $1', [
    businessUuid,
  ]);
  return rows[0].uuid as string;
}
