import { JwtService } from '@nestjs/jwt';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { GENERATED_SECRET_FILE } from '../src/config/generated-secret';
import { OrderTokens } from '../src/order/domain/order-token';
import { registerAndLogin } from './support/account';
import { createTestDatabase, TestDatabase } from './support/database';
import { newCatalog } from './support/entity';
import { expectError, expectOk } from './support/expect';
import { apiHeaders } from './support/factory';
import { guestHeaders, orderBody, placeOrder } from './support/order';
import { startTestApp, TestApp } from './support/test-app';

/**
 * The constant every installation without JWT_SECRET used to sign with. It
 * was public, so anyone could sign a token for any owner whose uuid a
 * storefront shows; a default installation must refuse what it signs.
 */
const OLD_SHARED_SECRET = 'dev-jwt-secret-not-for-production-use-0123456789';

// R64: generated secret.
describe('no shared default secret (JWT_SECRET unset, outside production)', () => {
  let db: TestDatabase;
  let t: TestApp;
  // An empty JWT_SECRET counts as unset: the test app's own secret is not used.
  const defaultInstall = () => startTestApp({ JWT_SECRET: '' }, { database: db });

  beforeAll(async () => {
    db = await createTestDatabase();
    t = await defaultInstall();
  });
  afterAll(async () => {
    await t?.close();
    await db?.drop();
  });

  it('signs with a secret of its own, kept in DATA_DIR readable by its user only', () => {
    const file = join(t.config.dataDir, GENERATED_SECRET_FILE);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8').trim()).toBe(t.config.jwtSecret);
    expect(t.config.jwtSecret).not.toBe(OLD_SHARED_SECRET);
    expect(Buffer.from(t.config.jwtSecret, 'base64url')).toHaveLength(32);
  });

  it("refuses an owner's token and an order token signed with the old shared secret, and changes nothing", async () => {
    const owner = await registerAndLogin(t);
    const catalog = await newCatalog(t, owner);
    const order = await placeOrder(t, orderBody(catalog));

    const forged = new JwtService().sign(
      { sub: owner.uuid, ver: 0 },
      { secret: OLD_SHARED_SECRET, algorithm: 'HS256', expiresIn: 3600 },
    );
    expectError(
      await t.http.get(`${t.core}/orders`).set(apiHeaders(t, forged)),
      401,
      'UNAUTHENTICATED',
    );
    expectError(
      await t.http
        .put(`${t.orders}/admin/order/update/${order.uuid}`)
        .set(apiHeaders(t, forged))
        .send({ status: 'accepted' }),
      401,
      'UNAUTHENTICATED',
    );

    const forgedOrderToken = new OrderTokens(OLD_SHARED_SECRET).tokenFor(order.uuid);
    expect(forgedOrderToken).not.toBe(order.order_token);
    expectError(
      await t.http
        .get(`${t.orders}/order/${order.uuid}`)
        .set({ ...guestHeaders(t), 'x-order-token': forgedOrderToken }),
      404,
      'NOT_FOUND',
    );
    expectError(
      await t.http
        .post(`${t.orders}/order/${order.uuid}/cancel`)
        .set({ ...guestHeaders(t), 'x-order-token': forgedOrderToken })
        .send({}),
      404,
      'NOT_FOUND',
    );

    const owned = expectOk(await t.http.get(`${t.core}/orders/${order.uuid}`).set(owner.headers));
    expect(owned.status).toBe('pending');
    expect(owned.history).toHaveLength(order.history.length);
  });

  it('keeps the secret across a restart: tokens issued before it still work', async () => {
    const owner = await registerAndLogin(t);
    const catalog = await newCatalog(t, owner);
    const order = await placeOrder(t, orderBody(catalog));
    const secret = t.config.jwtSecret;

    await t.close();
    t = await defaultInstall();

    expect(t.config.jwtSecret).toBe(secret);
    expect(statSync(join(t.config.dataDir, GENERATED_SECRET_FILE)).mode & 0o777).toBe(0o600);
    expectOk(await t.http.get(`${t.core}/orders/${order.uuid}`).set(owner.headers));
    expectOk(
      await t.http
        .get(`${t.orders}/order/${order.uuid}`)
        .set({ ...guestHeaders(t), 'x-order-token': order.order_token }),
    );
  });
});
