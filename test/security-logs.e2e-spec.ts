import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { AppConfig } from '../src/config/config';
import { registerAndLogin } from './support/account';
import { ChildService, startChildService } from './support/child-service';
import { createTestDatabase, TestDatabase } from './support/database';
import { newCatalog } from './support/entity';
import { expectOk } from './support/expect';
import { guestHeaders, openOrderStream, openStream, orderBody, placeOrder } from './support/order';
import { TEST_API_KEY, TestApp } from './support/test-app';

// R65: log redaction.
/**
 * The service as its own process, its standard output captured: every kind of
 * credential a client sends is used at least once (headers, query strings and
 * bodies, accepted and refused), and none of their values may appear anywhere
 * in what it logged.
 */
describe('secrets never reach the log', () => {
  let db: TestDatabase;
  let child: ChildService;
  let t: TestApp;

  beforeAll(async () => {
    db = await createTestDatabase();
    child = await startChildService({ ...db.env, LOG_LEVEL: 'info', TRUST_PROXY: 'loopback' });
    await child.ready();
    // The support helpers only need the client, the paths and the API key.
    t = {
      http: request(child.baseUrl),
      baseUrl: child.baseUrl,
      core: '/public/api/v1/svc',
      orders: '/plugins/svc/svc-init',
      files: '/api/v1/svc/file-manager',
      config: { namespace: 'svc', apiKeys: [TEST_API_KEY] } as AppConfig,
    } as TestApp;
  });
  afterAll(async () => {
    await child?.kill('SIGKILL');
    await db?.drop();
  });

  it('censors order tokens, access tokens, API keys, passwords, emailed codes and invitation tokens', async () => {
    const secrets: string[] = [TEST_API_KEY];
    const unique = (prefix: string) => `${prefix}${randomBytes(9).toString('hex')}`;

    const password = unique('pw-');
    const owner = await registerAndLogin(t, { password, password_confirmation: password });
    secrets.push(password, owner.token);
    expectOk(await t.http.get(`${t.core}/orders`).set(owner.headers));

    const catalog = await newCatalog(t, owner);
    const order = await placeOrder(t, orderBody(catalog));
    secrets.push(order.order_token);
    const guest = guestHeaders(t);
    expectOk(
      await t.http
        .get(`${t.orders}/order/${order.uuid}`)
        .query({ order_token: order.order_token })
        .set(guest),
    );
    expectOk(
      await t.http
        .get(`${t.orders}/order/${order.uuid}`)
        .set({ ...guest, 'x-order-token': order.order_token }),
    );
    const wrongToken = unique('wrong-');
    secrets.push(wrongToken);
    expect(
      (
        await t.http
          .get(`${t.orders}/order/${order.uuid}`)
          .query({ order_token: wrongToken })
          .set(guest)
      ).status,
    ).toBe(404);

    // EventSource sends both credentials in the query.
    const ownerStream = await openOrderStream(t, owner.token);
    const guestStream = await openStream(t.baseUrl, `${t.orders}/order/${order.uuid}/stream`, {
      api_key: TEST_API_KEY,
      order_token: order.order_token,
    });
    ownerStream.close();
    guestStream.close();

    const resetCode = String(10_000_000 + (randomBytes(3).readUIntBE(0, 3) % 89_999_999));
    const newPassword = unique('new-');
    secrets.push(resetCode, newPassword);
    const reset = await t.http
      .post(`${t.core}/user/reset-password/validate`)
      .set({ 'x-api-key': TEST_API_KEY })
      .send({
        email_address: owner.email,
        token_to_reset_password: resetCode,
        new_password: newPassword,
        new_password_confirmation: newPassword,
      });
    expect(reset.status).toBeGreaterThanOrEqual(400);
    const changeCode = unique('');
    secrets.push(changeCode);
    const change = await t.http
      .post(`${t.core}/user/change-password/validate`)
      .set(owner.headers)
      .send({
        token_to_change_password: changeCode,
        old_password: password,
        new_password: newPassword,
        new_password_confirmation: newPassword,
      });
    expect(change.status).toBeGreaterThanOrEqual(400);

    const invitation = unique('inv-');
    const apiKeyInQuery = unique('key-');
    secrets.push(invitation, apiKeyInQuery);
    await t.http.get(`${t.core}/orders`).query({ invitation_token: invitation }).set(owner.headers);
    // A refused key, sent as EventSource sends it.
    expect(
      (await t.http.get(`${t.core}/orders/stream`).query({ api_key: apiKeyInQuery })).status,
    ).toBe(401);

    await child.kill('SIGTERM');
    const log = child.output();
    // The requests above were logged, with their credentials censored.
    expect(log).toContain('request completed');
    expect(log).toContain(`/order/${order.uuid}?order_token=[redacted]`);
    expect(log).toContain('"x-order-token":"[redacted]"');
    expect(log).toContain('"authorization":"[redacted]"');
    for (const secret of secrets) expect(log).not.toContain(secret);
  });
});
