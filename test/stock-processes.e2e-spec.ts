import request from 'supertest';
import { ChildService, startChildService } from './support/child-service';
import { createTestDatabase, TestDatabase } from './support/database';
import { Catalog, newCatalog } from './support/entity';
import { expectError, expectOk } from './support/expect';
import { apiHeaders, createUser, TestUser } from './support/factory';
import { cartLine, guestHeaders, orderBody } from './support/order';
import { readUntil } from './support/read-until';
import { serverOnly } from './support/server-only';
import { startTestApp, TestApp } from './support/test-app';

// R96: exactly as many orders as portions, whichever process takes them.
// R97: the storefront of one process shows what another took or restocked, at once.
describe('stock across two service processes on one PostgreSQL server', () => {
  let db: TestDatabase | undefined;
  let t: TestApp | undefined;
  let child: ChildService | undefined;
  let owner: TestUser;
  let catalog: Catalog;

  afterAll(async () => {
    await child?.kill('SIGTERM');
    await t?.close();
    await db?.drop();
  });

  serverOnly(
    '30 simultaneous orders for 5 portions, half through each process, give exactly 5; a restock through one shows in the other',
    async () => {
      db = await createTestDatabase();
      t = await startTestApp({}, { database: db });
      // A long cache, so only hearing of a change can make a process show another's.
      child = await startChildService({ ...db.env, STOREFRONT_CACHE_TTL_MS: '60000' });
      await child.ready();
      owner = await createUser(t);
      catalog = await newCatalog(t, owner, {
        items: [{ extra_data: { stock: { mode: 'daily', quantity: 5 } } }],
      });
      const other = request(child.baseUrl);
      const storefront = async (agent: typeof other) =>
        expectOk(
          await agent
            .get(`${t!.core}/storefront/${catalog.business.meta_key}/menu/${catalog.menu.meta_key}`)
            .set(apiHeaders(t!)),
        ).items[0];
      // The other process has the storefront cached before the orders.
      expect(await storefront(other)).toMatchObject({ stock_remaining: 5 });

      const body = () =>
        orderBody(catalog, { amount: 10, cart_items: [cartLine(catalog.items[0], 1)] });
      const results = await Promise.all(
        Array.from({ length: 30 }, (_, i) =>
          (i % 2 === 0 ? t!.http : other)
            .post(`${t!.orders}/order`)
            .set(guestHeaders(t!))
            .send(body()),
        ),
      );
      expect(results.filter((res) => res.status === 201)).toHaveLength(5);
      for (const res of results.filter((r) => r.status !== 201)) {
        expectError(res, 422, 'UNPROCESSABLE');
      }
      const [row] = await t.dataSource.query(
        `SELECT (SELECT count(*)::int FROM orders WHERE menu_uuid = $1) AS orders,
                (SELECT taken FROM stock_counts WHERE item_uuid = $2) AS taken`,
        [catalog.menu.uuid, catalog.items[0].uuid],
      );
      expect(row).toEqual({ orders: 5, taken: 5 });
      const shown = await storefront(other);
      expect(shown.stock_remaining).toBe(0);
      expect(shown.extra_data.available).toBe(false);

      // A restock through the first process only: the other drops its cached storefront when it hears of it.
      expect(await storefront(other)).toMatchObject({ stock_remaining: 0 }); // cached again
      expectOk(
        await t.http
          .post(
            `${t.core}/businesses/${catalog.business.uuid}/stock/${catalog.items[0].uuid}/adjust`,
          )
          .set(owner.headers)
          .send({ delta: 3, reason: 'restock' }),
      );
      const restocked = await readUntil(
        () => storefront(other),
        (item) => item.stock_remaining === 3,
      );
      expect(restocked.stock_remaining).toBe(3);
      expect(restocked.extra_data.available).not.toBe(false);
    },
    120_000,
  );
});
