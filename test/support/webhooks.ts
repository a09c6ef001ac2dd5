import { expectOk } from './expect';
import { TestUser } from './factory';
import { TestApp } from './test-app';

/** How many webhook rows are stored: refusals check that none was added. */
export interface WebhookRows {
  endpoints: number;
  events: number;
  deliveries: number;
}

export async function storedWebhookRows(t: TestApp): Promise<WebhookRows> {
  const [row] = await t.dataSource.query(
    `SELECT (SELECT count(*) FROM webhook_endpoints)::int AS endpoints,
            (SELECT count(*) FROM webhook_events)::int AS events,
            (SELECT count(*) FROM webhook_deliveries)::int AS deliveries`,
  );
  return row as WebhookRows;
}

export function createWebhookRequest(t: TestApp, user: TestUser, body: Record<string, unknown>) {
  return t.http.post(`${t.core}/webhooks`).set(user.headers).send(body);
}

export async function createWebhook(
  t: TestApp,
  user: TestUser,
  body: Record<string, unknown>,
): Promise<any> {
  return expectOk(await createWebhookRequest(t, user, body), 201);
}

export async function deliveriesOf(t: TestApp, user: TestUser, uuid: string): Promise<any[]> {
  return expectOk(
    await t.http.get(`${t.core}/webhooks/${uuid}/deliveries?per_page=100`).set(user.headers),
  );
}
