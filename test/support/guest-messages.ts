import { OutboxWorker } from '../../src/outbox/outbox.worker';
import { Catalog, newCatalog } from './entity';
import { expectOk } from './expect';
import { TestUser } from './factory';
import { orderBody, placeOrder, updateOrderRequest } from './order';
import { TestApp } from './test-app';

/** A mobile number of Nigeria (MTN), in E.164; its national form is `0` and the last 10 digits. */
export const GUEST_PHONE = '+2348031234567';

/** The guest_messages setting of a business: both channels, every event, unless overridden. */
export function guestMessagesSetting(overrides: Record<string, unknown> = {}) {
  return {
    channels: ['whatsapp', 'sms'],
    events: ['accepted', 'ready', 'out_for_delivery', 'rejected'],
    ...overrides,
  };
}

/** A business (NG) that sends guest messages as `setting` says (none: it sends none). */
export function messagingCatalog(
  t: TestApp,
  owner: TestUser,
  setting: Record<string, unknown> | null = guestMessagesSetting(),
): Promise<Catalog> {
  return newCatalog(t, owner, {
    business: { extra_data: setting ? { guest_messages: setting } : {} },
  });
}

/** Places an order whose guest consents on `channel` with `phone`. */
export function placeConsentedOrder(
  t: TestApp,
  catalog: Catalog,
  channel: 'whatsapp' | 'sms' = 'whatsapp',
  phone = GUEST_PHONE,
): Promise<any> {
  return placeOrder(
    t,
    orderBody(catalog, { customer_phone_number: phone, message_consent: { channel } }),
  );
}

/** Moves the order as the owner; answers the order. */
export async function moveOrder(
  t: TestApp,
  owner: TestUser,
  orderUuid: string,
  status: string,
): Promise<any> {
  return expectOk(await updateOrderRequest(t, owner.headers, orderUuid, { status }));
}

export function drainMessages(t: TestApp): Promise<number> {
  return t.app.get(OutboxWorker).drain();
}

export interface StoredMessage {
  uuid: string;
  order_uuid: string;
  event: string;
  channel: string;
  phone: string;
  status: string;
  provider: string | null;
  provider_message_id: string | null;
  error: string | null;
  fallback: boolean;
  parameters: string[];
  language: string;
}

/** The message log's rows of an order (or all), oldest first. */
export async function storedMessages(t: TestApp, orderUuid?: string): Promise<StoredMessage[]> {
  return t.dataSource.query(
    `SELECT uuid, order_uuid, event, channel, phone, status, provider, provider_message_id,
            error, fallback, parameters, language
       FROM guest_messages ${orderUuid ? 'WHERE order_uuid = $1' : ''}
      ORDER BY created_at, channel DESC`,
    orderUuid ? [orderUuid] : [],
  );
}
