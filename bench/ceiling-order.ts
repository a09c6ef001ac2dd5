/**
 * The ceiling's P3 (bench/ceiling.ts): an order placed as the service places
 * it, in one transaction with the same statements in the same order: the
 * guest's token, the order reference, the price arithmetic in cents, and the
 * notification, mails and event the service writes with the order.
 */
import { createHash, createHmac, randomBytes, randomUUID } from 'node:crypto';
import { IncomingMessage, ServerResponse } from 'node:http';
import { Pool, PoolClient } from 'pg';
import { BUSINESS, ITEM, MENU, send, SQL } from './ceiling-sql';

/** Strips the "b_" prefix of the business half of menuWithBusiness. */
function split(row: Record<string, unknown>): {
  menu: Record<string, unknown>;
  business: Record<string, unknown>;
} {
  const menu: Record<string, unknown> = {};
  const business: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(row)) {
    if (key.startsWith('b_')) business[key.slice(2)] = value;
    else menu[key] = value;
  }
  return { menu, business };
}

const TOKEN_KEY = createHmac('sha256', 'bench-secret').update('order-token').digest();

const REFERENCE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';

function orderReference(): string {
  const bytes = randomBytes(8);
  let out = '';
  for (const byte of bytes) out += REFERENCE_ALPHABET[byte % REFERENCE_ALPHABET.length];
  return `${out.slice(0, 4)}-${out.slice(4)}`;
}

function cents(text: string): number {
  const [whole, fraction = ''] = text.split('.');
  return Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
}

/**
 * The options of one cart line priced as the service prices them: each must
 * exist in its group, be available and be chosen once, and each group's
 * count must lie within its min and max. Answers the added cents and the
 * snapshot the line keeps.
 */
function priceOptions(item: any, chosen: Array<{ group: string; option: string }> = []) {
  const groups: any[] = Array.isArray(item.extra_data.option_groups)
    ? item.extra_data.option_groups
    : [];
  const counts = new Map<string, number>();
  const seen = new Set<string>();
  let delta = 0;
  const options = chosen.map((choice) => {
    const group = groups.find((g) => g.key === choice.group);
    const option = group?.options.find((o: any) => o.key === choice.option);
    const id = `${choice.group}/${choice.option}`;
    if (!option || option.available === false || seen.has(id)) {
      throw new Error(`Line option ${id} cannot be ordered`);
    }
    seen.add(id);
    counts.set(group.key, (counts.get(group.key) ?? 0) + 1);
    delta += cents(option.price_delta);
    return {
      group: group.key,
      group_title: group.title,
      option: option.key,
      option_title: option.title,
      price_delta: option.price_delta,
    };
  });
  for (const group of groups) {
    const count = counts.get(group.key) ?? 0;
    if (count < group.min_selected || count > group.max_selected) {
      throw new Error(`Group ${group.key}: ${count} options chosen`);
    }
  }
  return { delta, options };
}

function money(value: number): string {
  return `${Math.floor(value / 100)}.${String(value % 100).padStart(2, '0')}`;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

export async function placeOrder(pool: Pool, req: IncomingMessage, res: ServerResponse) {
  const text = await readBody(req);
  const body = JSON.parse(text);
  const key = String(req.headers['idempotency-key']);
  const now = Date.now();
  const windowStart = Math.floor(now / 60000) * 60000;
  await pool.query(SQL.rateLimit, [
    'order-place-ip',
    createHash('sha256')
      .update(req.socket.remoteAddress ?? '')
      .digest('hex'),
    new Date(windowStart),
    new Date(windowStart + 60000),
  ]);
  const client: PoolClient = await pool.connect();
  try {
    await client.query('START TRANSACTION');
    const requestHash = createHash('sha256').update(text).digest('hex');
    await client.query(SQL.claimKey, [
      'order.place',
      key,
      requestHash,
      new Date(now),
      new Date(now - 86_400_000),
    ]);
    const found = (await client.query(SQL.menuWithBusiness, [body.menu_uuid, MENU, BUSINESS]))
      .rows[0];
    const { menu, business } = split(found);
    const wanted: string[] = body.cart_items.map((line: { uuid: string }) => line.uuid);
    const items = new Map<string, any>(
      (await client.query(SQL.orderItems, [wanted, menu.uuid, ITEM])).rows.map((item) => [
        item.uuid,
        item,
      ]),
    );
    const lines = body.cart_items.map(
      (
        line: {
          uuid: string;
          quantity: number;
          item_note?: string;
          options?: Array<{ group: string; option: string }>;
        },
        position: number,
      ) => {
        const item = items.get(line.uuid);
        const priced = priceOptions(item, line.options);
        const unit = cents(item.extra_data.unit_price_amount) + priced.delta;
        return {
          position,
          item,
          unit,
          options: priced.options,
          quantity: line.quantity,
          total: unit * line.quantity,
          note: line.item_note || null,
        };
      },
    );
    const amount = money(
      lines.reduce((sum: number, line: { total: number }) => sum + line.total, 0),
    );
    const inserted = await client.query(SQL.insertOrder, [
      orderReference(),
      menu.uuid,
      business.uuid,
      business.owned_by,
      body.payment_processor ?? 'cash',
      amount,
      (menu.extra_data as Record<string, unknown>).menu_base_wallet_ticker,
      body.customer_email_address,
      body.customer_phone_number || null,
      body.customer_requested_order_email_copy ?? false,
      body.general_note || null,
      body.delivery_data ? JSON.stringify(body.delivery_data) : null,
      body.onpremise_data ? JSON.stringify(body.onpremise_data) : null,
    ]);
    const order = inserted.rows[0];
    const orderUuid: string = order.uuid;
    const storedLines = (
      await client.query(
        SQL.insertLines(lines.length),
        lines.flatMap((line: any) => [
          orderUuid,
          line.position,
          line.item.uuid,
          line.item.title_name,
          line.item.extra_data.category,
          money(line.unit),
          JSON.stringify(line.options),
          line.quantity,
          money(line.total),
          line.note,
        ]),
      )
    ).rows;
    const storedEvents = (
      await client.query(SQL.insertEvent, [orderUuid, 'status', null, 'pending', null, 'guest'])
    ).rows;
    const answer = {
      ...order,
      items: storedLines.map((line) => ({
        item_uuid: line.item_uuid,
        title_name: line.title_name,
        unit_price_amount: line.unit_price_amount,
        options: line.options,
        quantity: line.quantity,
        line_total: line.line_total,
        item_note: line.item_note,
      })),
      history: storedEvents.map((event) => ({
        field: event.field,
        from: event.from_value,
        to: event.to_value,
        by: event.actor_uuid,
        actor: event.actor,
        at: event.created_at,
      })),
    };
    const summary = {
      order_uuid: orderUuid,
      order_reference: order.order_reference,
      business_uuid: business.uuid,
      menu_uuid: menu.uuid,
      amount,
      currency: order.currency,
    };
    await client.query(SQL.notification, [
      business.owned_by,
      'order.created',
      `New order ${order.order_reference}`,
      `${lines.length} items, total ${amount} ${order.currency}, at ${business.title_name}`,
      JSON.stringify(summary),
    ]);
    const owner = (await client.query(SQL.owner, [business.owned_by])).rows[0];
    const mailText = lines
      .map(
        (line: any) =>
          `  ${line.quantity} × ${line.item.title_name} @ ${money(line.unit)} = ${money(line.total)}`,
      )
      .join('\n');
    await client.query(SQL.outbox, [
      'mail',
      JSON.stringify({
        to: owner.email,
        subject: `New order ${order.order_reference} for ${business.title_name}`,
        text: `${business.title_name} has a new order.\n\n${mailText}\n\nTotal: ${amount}`,
      }),
    ]);
    if (body.customer_requested_order_email_copy) {
      await client.query(SQL.outbox, [
        'mail',
        JSON.stringify({
          to: body.customer_email_address,
          subject: `Your order ${order.order_reference} at ${business.title_name}`,
          text: `Thank you for your order.\n\n${mailText}\n\nTotal: ${amount}`,
        }),
      ]);
    }
    await client.query(SQL.notify, [
      'order_created',
      JSON.stringify({
        id: randomUUID(),
        type: 'order.created',
        ownerUuid: business.owned_by,
        order: summary,
      }),
    ]);
    await client.query(SQL.completeKey, [
      'order.place',
      key,
      201,
      JSON.stringify(answer),
      orderUuid,
    ]);
    await client.query('COMMIT');
    // The guest's token, derived as the service derives it (never stored).
    const orderToken = createHmac('sha256', TOKEN_KEY).update(orderUuid).digest('base64url');
    send(res, 201, {
      status: true,
      message: 'Order placed',
      data: { ...answer, order_token: orderToken },
    });
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}
