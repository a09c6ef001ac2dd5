import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { TokenService } from '../src/auth/token.service';
import { EmbeddedPostgres } from '../src/database/embedded/embedded-postgres';
import { OrderTokens } from '../src/order/domain/order-token';
import { createTestDatabase, TestDatabase } from './support/database';
import { expectOk } from './support/expect';
import { startTestApp, TEST_API_KEY, TEST_JWT_SECRET, TestApp } from './support/test-app';

/**
 * Payments became records of their own: the migration moves every order's
 * payment columns into payment rows and drops the columns. The fixture holds
 * the rows and the answers of the service before that change, for orders in
 * every payment state it could reach (unpaid, an open checkout, one that did
 * not open, paid, failed, mismatch, overpaid, partially and fully refunded,
 * refunded by hand with or without money, a pending refund); after the
 * migration every answer reads the same.
 */
interface Fixture {
  owner: string;
  rows: Record<string, unknown[]>;
  answers: Record<
    string,
    { uuid: string; owner: Record<string, unknown>; guest: Record<string, unknown> }
  >;
}

const FIXTURE: Fixture = JSON.parse(
  readFileSync(join(__dirname, 'fixtures', 'orders-before-payment-records.json'), 'utf8'),
);
/** The first migration of payments as records; the fixture's schema is every migration before it. */
const RECORDS_MIGRATION = 1795800000000;
const TABLES = [
  'users',
  'entities',
  'orders',
  'order_lines',
  'order_events',
  'payment_refunds',
  'payment_events',
];

function migrationsBefore(stamp: number): string[] {
  const dir = join(__dirname, '..', 'migrations');
  return readdirSync(dir)
    .filter((file) => /^\d+-.*\.ts$/.test(file) && Number(file.split('-')[0]) < stamp)
    .map((file) => join(dir, file));
}

/** The database at the schema before payments had rows, holding the fixture's rows. */
async function seedOldSchema(database: TestDatabase): Promise<void> {
  const embedded = database.env.DATABASE_URL
    ? undefined
    : new EmbeddedPostgres(database.env.DATA_DIR);
  const connection = embedded ? await embedded.start() : undefined;
  const dataSource = new DataSource({
    type: 'postgres',
    ...(connection
      ? {
          host: connection.host,
          port: connection.port,
          username: connection.user,
          database: connection.database,
          poolSize: 1,
        }
      : { url: database.env.DATABASE_URL }),
    migrations: migrationsBefore(RECORDS_MIGRATION),
    migrationsRun: true,
    migrationsTransactionMode: 'each',
  });
  try {
    await dataSource.initialize();
    for (const table of TABLES) {
      await dataSource.query(
        `INSERT INTO ${table} SELECT * FROM jsonb_populate_recordset(NULL::${table}, $1::jsonb)`,
        [JSON.stringify(FIXTURE.rows[table])],
      );
    }
  } finally {
    if (dataSource.isInitialized) await dataSource.destroy();
    await embedded?.stop();
  }
}

describe('payments as records: the migration of every order’s payment', () => {
  let database: TestDatabase;
  let t: TestApp;
  let ownerHeaders: Record<string, string>;
  const tokens = new OrderTokens(TEST_JWT_SECRET);

  beforeAll(async () => {
    database = await createTestDatabase({ empty: true });
    await seedOldSchema(database);
    t = await startTestApp({}, { database });
    const [user] = await t.dataSource.query(
      `SELECT uuid, token_version FROM users WHERE uuid = $1`,
      [FIXTURE.owner],
    );
    const { accessToken } = await t.app.get(TokenService).issue({
      uuid: user.uuid,
      tokenVersion: user.token_version,
    });
    ownerHeaders = { 'x-api-key': TEST_API_KEY, authorization: `Bearer ${accessToken}` };
  });
  afterAll(async () => {
    await t?.close();
    await database?.drop();
  });

  /** The answer as it was: the fields the service answered before payments had rows. */
  function asBefore(answer: Record<string, unknown>, before: Record<string, unknown>) {
    // Lines carry their own `line_uuid` since tabs split bills by line: a field added, none changed.
    const items = (answer.items as Array<Record<string, unknown>>).map(
      ({ line_uuid: _line, ...line }) => line,
    );
    return Object.fromEntries(
      Object.keys(before).map((key) => [key, key === 'items' ? items : answer[key]]),
    );
  }

  /** Lines answer the allergens they recorded since; orders placed before record none. */
  function withLaterFields(before: Record<string, unknown>): Record<string, unknown> {
    const items = before.items as Array<Record<string, unknown>> | undefined;
    return items ? { ...before, items: items.map((line) => ({ ...line, allergens: [] })) } : before;
  }

  it.each(Object.keys(FIXTURE.answers))(
    'answers %s as before, to its owner and its guest',
    async (name) => {
      const { uuid } = FIXTURE.answers[name];
      const owner = withLaterFields(FIXTURE.answers[name].owner);
      const guest = withLaterFields(FIXTURE.answers[name].guest);
      const ownerView = expectOk(await t.http.get(`${t.core}/orders/${uuid}`).set(ownerHeaders));
      expect(asBefore(ownerView, owner)).toEqual(owner);
      const guestView = expectOk(
        await t.http
          .get(`${t.orders}/order/${uuid}`)
          .set({ 'x-api-key': TEST_API_KEY, 'x-order-token': tokens.tokenFor(uuid) }),
      );
      // The guest's view no longer names who acted (a rule of its own): `by` is null there now.
      const guestBefore = {
        ...guest,
        history: (guest.history as Array<Record<string, unknown>>).map((entry) => ({
          ...entry,
          by: null,
        })),
      };
      expect(asBefore(guestView, guestBefore)).toEqual(guestBefore);
      expect(ownerView.payments.length).toBeGreaterThan(0);
    },
  );

  it('keeps each checkout of an order as a payment of its own, so a late webhook still finds it', async () => {
    const { uuid } = FIXTURE.answers.card_overpaid;
    const view = expectOk(await t.http.get(`${t.core}/orders/${uuid}`).set(ownerHeaders));
    const reference = view.order_reference;
    expect(
      view.payments.map((p: { reference: string; status: string }) => [p.reference, p.status]),
    ).toEqual([
      [`${reference}-2`, 'abandoned'],
      [`${reference}-1`, 'paid'],
    ]);
    const second = FIXTURE.answers.card_second_checkout_open;
    const open = expectOk(await t.http.get(`${t.core}/orders/${second.uuid}`).set(ownerHeaders));
    expect(open.payments.map((p: { status: string }) => p.status)).toEqual([
      'abandoned',
      'pending',
    ]);
  });

  it('links every refund to the payment it gave back, and adds the refund recorded by hand', async () => {
    const [unlinked] = await t.dataSource.query(
      `SELECT count(*)::int AS n FROM payment_refunds WHERE payment_uuid IS NULL`,
    );
    expect(unlinked.n).toBe(0);
    const { uuid } = FIXTURE.answers.cash_paid_then_refunded_by_hand;
    const view = expectOk(await t.http.get(`${t.core}/orders/${uuid}`).set(ownerHeaders));
    expect(view.payments).toEqual([
      expect.objectContaining({
        status: 'paid',
        amount_paid: '2000.00',
        refunds: [expect.objectContaining({ amount: '2000.00', status: 'processed' })],
      }),
    ]);
    const pending = FIXTURE.answers.card_refund_pending;
    const withPending = expectOk(
      await t.http.get(`${t.core}/orders/${pending.uuid}`).set(ownerHeaders),
    );
    expect(withPending.payments.at(-1).refunds).toEqual([
      expect.objectContaining({ amount: '100.00', status: 'pending' }),
    ]);
  });

  it('drops the payment columns of orders', async () => {
    const columns = await t.dataSource.query(
      `SELECT column_name FROM information_schema.columns
        WHERE table_name = 'orders' AND column_name LIKE 'payment%' ORDER BY column_name`,
    );
    expect(columns.map((c: { column_name: string }) => c.column_name)).toEqual([
      'payment_processor',
      'payment_state',
      'payment_status',
    ]);
  });
});
