import { JwtService } from '@nestjs/jwt';
import { login, registerAndLogin } from './support/account';
import { newCatalog } from './support/entity';
import { expectOk } from './support/expect';
import { apiHeaders } from './support/factory';
import { lastMailTo, tokenIn } from './support/mail';
import { OrderStream, openOrderStream, orderBody, placeOrder } from './support/order';
import { startTestApp, TEST_JWT_SECRET, TestApp } from './support/test-app';

/** A stream must end within 5 s of its credential ending. */
const WITHIN_MS = 5_000;

async function endsWithin(stream: OrderStream, ms: number): Promise<number> {
  const started = Date.now();
  await Promise.race([
    stream.ended,
    new Promise((_, fail) => setTimeout(() => fail(new Error(`still open after ${ms} ms`)), ms)),
  ]);
  return Date.now() - started;
}

// R66: stream re-check.
describe("an owner's order stream ends when its credential does", () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ RATE_LIMIT_AUTH_PER_MINUTE: '1000' });
  });
  afterAll(() => t?.close());

  it('closes within 5 s of a password reset; a stream on the new token and another owner go on', async () => {
    const owner = await registerAndLogin(t);
    const other = await registerAndLogin(t);
    const catalog = await newCatalog(t, owner);
    const otherCatalog = await newCatalog(t, other);
    const old = await openOrderStream(t, owner.token);
    const bystander = await openOrderStream(t, other.token);
    try {
      const first = await placeOrder(t, orderBody(catalog));
      await old.waitFor((event) => event.data?.uuid === first.uuid);

      const password = 'a-brand-new-pass';
      const post = (path: string, body: object) =>
        t.http.post(`${t.core}/user/${path}`).set(apiHeaders(t)).send(body);
      expectOk(await post('reset-password', { email_address: owner.email }));
      const code = tokenIn(await lastMailTo(t, owner.email, /reset/i));
      expectOk(
        await post('reset-password/validate', {
          email_address: owner.email,
          token_to_reset_password: code,
          new_password: password,
          new_password_confirmation: password,
        }),
      );
      expect(await endsWithin(old, WITHIN_MS)).toBeLessThan(WITHIN_MS);
      const closed = old.events.find((event) => event.event === 'stream.closed');
      expect(closed?.data.reason).toMatch(/no longer valid/);

      // EventSource reconnects with the URL it has: the old token is refused.
      const again = await openOrderStream(t, owner.token);
      expect(again.status).toBe(401);

      // The owner's new token opens a stream that stays, and sees the next order; so does the bystander's.
      const fresh = await openOrderStream(t, (await login(t, owner.email, password)).access_token);
      try {
        const second = await placeOrder(t, orderBody(catalog));
        await fresh.waitFor((event) => event.data?.uuid === second.uuid);
        expect(old.events.some((event) => event.data?.uuid === second.uuid)).toBe(false);
        const theirs = await placeOrder(t, orderBody(otherCatalog));
        await bystander.waitFor((event) => event.data?.uuid === theirs.uuid);
        // Two more checks pass: neither stream is closed by them.
        await new Promise((done) => setTimeout(done, 2 * 2_000 + 500));
        const late = await placeOrder(t, orderBody(catalog));
        await fresh.waitFor((event) => event.data?.uuid === late.uuid);
        expect(fresh.events.some((event) => event.event === 'stream.closed')).toBe(false);
      } finally {
        fresh.close();
      }
    } finally {
      old.close();
      bystander.close();
    }
  });

  it("closes within 5 s of its token's expiry", async () => {
    const owner = await registerAndLogin(t);
    const expiresInSeconds = 2;
    const shortLived = new JwtService().sign(
      { sub: owner.uuid, ver: 0 },
      { secret: TEST_JWT_SECRET, algorithm: 'HS256', expiresIn: expiresInSeconds },
    );
    const stream = await openOrderStream(t, shortLived);
    try {
      expect(stream.status).toBe(200);
      const elapsed = await endsWithin(stream, expiresInSeconds * 1000 + WITHIN_MS);
      expect(elapsed).toBeGreaterThanOrEqual(expiresInSeconds * 1000 - 1000);
      const closed = stream.events.find((event) => event.event === 'stream.closed');
      expect(closed?.data.reason).toMatch(/expired/);
    } finally {
      stream.close();
    }
  });
});
