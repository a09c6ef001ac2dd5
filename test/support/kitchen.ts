import { Catalog, newCatalog } from './entity';
import { expectOk } from './expect';
import { createUser, TestUser } from './factory';
import { openStream, orderBody, placeOrder, updateOrderRequest } from './order';
import { addMember } from './team';
import { TestApp } from './test-app';

/** A kitchen of two stations: the grill (Burgers, and the default) and the bar (Drinks). */
export const KITCHEN = {
  stations: [
    { key: 'grill', title: 'Grill', categories: ['Burgers'] },
    { key: 'bar', title: 'Bar', categories: ['Drinks'] },
  ],
  default_station: 'grill',
};

/** A restaurant with a kitchen, its staff member, and an outsider with a business of their own. */
export interface KitchenCast {
  owner: TestUser;
  manager: TestUser;
  staff: TestUser;
  outsider: TestUser;
  /** Items: a burger (Burgers), a drink (Drinks), a soup (Food: the default station; fish). */
  catalog: Catalog;
  /** The outsider's business, with no kitchen setting. */
  other: Catalog;
}

export async function newKitchenCast(t: TestApp): Promise<KitchenCast> {
  const [owner, manager, staff, outsider] = [
    await createUser(t),
    await createUser(t),
    await createUser(t),
    await createUser(t),
  ];
  const catalog = await newCatalog(t, owner, {
    business: { extra_data: { kitchen: KITCHEN } },
    items: [
      { title_name: 'Suya burger', extra_data: { category: 'Burgers' } },
      { title_name: 'Chapman', extra_data: { category: 'Drinks' } },
      { title_name: 'Pepper soup', extra_data: { category: 'Food', allergens: ['fish'] } },
    ],
  });
  const other = await newCatalog(t, outsider, { items: [{}] });
  await addMember(t, owner, catalog.business.uuid, manager, 'manager');
  await addMember(t, owner, catalog.business.uuid, staff, 'staff');
  return { owner, manager, staff, outsider, catalog, other };
}

export function ticketsPath(t: TestApp, business: string, query = ''): string {
  return `${t.core}/businesses/${business}/kitchen/tickets${query}`;
}

export function ticketPath(t: TestApp, ticket: string, ...rest: string[]): string {
  return [`${t.core}/kitchen/tickets/${ticket}`, ...rest].join('/');
}

/** Places an order of every item of the catalog and accepts it as `user`; the order. */
export async function acceptedOrder(
  t: TestApp,
  catalog: Catalog,
  user: TestUser,
  overrides: Record<string, unknown> = {},
): Promise<any> {
  const order = await placeOrder(t, orderBody(catalog, overrides));
  expectOk(await updateOrderRequest(t, user.headers, order.uuid, { status: 'accepted' }));
  return order;
}

/** The tickets of one order as `user` lists them (every status). */
export async function ticketsOf(
  t: TestApp,
  user: TestUser,
  business: string,
  orderUuid: string,
): Promise<any[]> {
  const tickets: any[] = expectOk(
    await t.http.get(ticketsPath(t, business, '?status=all')).set(user.headers),
  );
  return tickets.filter((ticket) => ticket.order_uuid === orderUuid);
}

export function openStationStream(
  t: TestApp,
  token: string,
  business: string,
  station?: string,
  baseUrl = t.baseUrl,
) {
  return openStream(baseUrl, `${t.core}/businesses/${business}/kitchen/stream`, {
    api_key: t.config.apiKeys[0],
    access_token: token,
    ...(station ? { station } : {}),
  });
}
