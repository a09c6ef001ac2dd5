import { Response } from 'supertest';
import { Clock } from '../src/common/clock';
import { registerUser, storedTokens } from './support/account';
import { expectError, expectOk } from './support/expect';
import { apiHeaders, createUser } from './support/factory';
import { countMails, drainOutbox } from './support/mail';
import { startTestApp, TestApp } from './support/test-app';

const LIMIT = 3;

// R10: account rate limits.
describe('accounts: rate limits on login and code mails, per IP and per email', () => {
  let t: TestApp;
  let clock: Clock;
  let ipSeq = 0;

  /** A fresh client address for each use (the app trusts X-Forwarded-For from its proxy). */
  const newIp = () => {
    ipSeq += 1;
    return `198.51.100.${ipSeq}`;
  };

  const post = (path: string, body: object, ip: string, headers = apiHeaders(t)) =>
    t.http.post(`${t.core}/user/${path}`).set(headers).set('x-forwarded-for', ip).send(body);

  function expectLimited(res: Response): void {
    expectError(res, 429, 'RATE_LIMITED');
    const retryAfter = Number(res.headers['retry-after']);
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
  }

  beforeAll(async () => {
    t = await startTestApp({ RATE_LIMIT_AUTH_PER_MINUTE: String(LIMIT) });
    clock = t.app.get(Clock);
  });
  afterAll(() => t?.close());
  beforeEach(() => {
    // Start each test at the beginning of a fresh minute window.
    clock.set(new Date((Math.floor(clock.nowMs() / 60_000) + 2) * 60_000 + 100));
  });

  describe('POST /user/login', () => {
    it('limits one address across emails, and tells when to come back', async () => {
      const ip = newIp();
      const users = await Promise.all([1, 2, 3, 4].map(() => registerUser(t)));
      for (const user of users.slice(0, LIMIT)) {
        expect((await post('login', { email: user.email, password: 'wrong' }, ip)).status).toBe(
          401,
        );
      }
      const res = await post('login', { email: users[3].email, password: users[3].password }, ip);
      expectLimited(res);
      expect(res.body.data).toBeUndefined();
      // Another address is not affected.
      expectOk(
        await post('login', { email: users[3].email, password: users[3].password }, newIp()),
      );
    });

    it('limits one email across addresses, even with the right password', async () => {
      const user = await registerUser(t);
      for (let i = 0; i < LIMIT; i += 1) {
        expect(
          (await post('login', { email: user.email, password: 'wrong' }, newIp())).status,
        ).toBe(401);
      }
      const res = await post(
        'login',
        { email: user.email.toUpperCase(), password: user.password },
        newIp(),
      );
      expectLimited(res);
      expect(JSON.stringify(res.body)).not.toContain('access_token');
    });

    it('opens again in the next window', async () => {
      const user = await registerUser(t);
      const ip = newIp();
      for (let i = 0; i < LIMIT; i += 1)
        expectOk(await post('login', { email: user.email, password: user.password }, ip));
      expectLimited(await post('login', { email: user.email, password: user.password }, ip));
      clock.advance(60_000);
      expectOk(await post('login', { email: user.email, password: user.password }, ip));
    });
  });

  describe('POST /user/reset-password', () => {
    it('limits one email across addresses: no mail beyond the limit', async () => {
      const user = await registerUser(t);
      for (let i = 0; i < LIMIT; i += 1)
        expectOk(await post('reset-password', { email_address: user.email }, newIp()));
      expectLimited(await post('reset-password', { email_address: user.email }, newIp()));
      await drainOutbox(t);
      expect(await countMails(t, user.email)).toBe(LIMIT);
    });

    it('limits one address across emails, registered or not (no enumeration through the limit)', async () => {
      const ip = newIp();
      const user = await registerUser(t);
      for (let i = 0; i < LIMIT; i += 1) {
        expectOk(
          await post(
            'reset-password',
            { email_address: `nobody-${i}-${Date.now()}@example.test` },
            ip,
          ),
        );
      }
      expectLimited(await post('reset-password', { email_address: user.email }, ip));
      await drainOutbox(t);
      expect(await countMails(t, user.email)).toBe(0);
      expect(await storedTokens(t, user.uuid)).toEqual([]);
    });
  });

  describe.each([
    ['change-password', /change/i],
    ['verify-email-address', /verify/i],
  ])('POST /user/%s', (path) => {
    it('limits one email: no code and no mail beyond the limit', async () => {
      const user = await createUser(t);
      for (let i = 0; i < LIMIT; i += 1) expectOk(await post(path, {}, newIp(), user.headers));
      const before = await storedTokens(t, user.uuid);
      expectLimited(await post(path, {}, newIp(), user.headers));
      await drainOutbox(t);
      expect(await countMails(t, user.email)).toBe(LIMIT);
      expect(await storedTokens(t, user.uuid)).toEqual(before);
    });

    it('limits one address across users', async () => {
      const ip = newIp();
      const users = await Promise.all([1, 2, 3, 4].map(() => createUser(t)));
      for (const user of users.slice(0, LIMIT)) expectOk(await post(path, {}, ip, user.headers));
      expectLimited(await post(path, {}, ip, users[3].headers));
      await drainOutbox(t);
      expect(await countMails(t, users[3].email)).toBe(0);
    });
  });

  it('limits code checks per address, before any try is spent', async () => {
    const user = await registerUser(t);
    expectOk(await post('reset-password', { email_address: user.email }, newIp()));
    const ip = newIp();
    const body = {
      email_address: user.email,
      token_to_reset_password: '11111111',
      new_password: 'whatever-pass',
      new_password_confirmation: 'whatever-pass',
    };
    for (let i = 0; i < LIMIT; i += 1)
      expect((await post('reset-password/validate', body, ip)).status).toBe(422);
    const spent = (await storedTokens(t, user.uuid))[0].attempts;
    expectLimited(await post('reset-password/validate', body, ip));
    expect((await storedTokens(t, user.uuid))[0].attempts).toBe(spent);
  });
});
