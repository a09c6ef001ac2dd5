import { Clock } from '../src/common/clock';
import { login, registerAndLogin, registerUser, storedTokens, storedUser } from './support/account';
import { expectError, expectOk } from './support/expect';
import { apiHeaders } from './support/factory';
import { countMails, lastMailTo, readMails, tokenIn } from './support/mail';
import { startTestApp, TestApp } from './support/test-app';

// R9: secrets.
describe('accounts: emailed codes for reset, change and verify', () => {
  let t: TestApp;
  let clock: Clock;

  beforeAll(async () => {
    t = await startTestApp({ RATE_LIMIT_AUTH_PER_MINUTE: '100000' });
    clock = t.app.get(Clock);
  });
  afterAll(() => t?.close());
  afterEach(() => clock.reset());

  const post = (path: string, body: object, headers = apiHeaders(t)) =>
    t.http.post(`${t.core}/user/${path}`).set(headers).send(body);

  const requestReset = (email: string) => post('reset-password', { email_address: email });
  const resetWith = (email: string, code: string, password = 'brand-new-pass') =>
    post('reset-password/validate', {
      email_address: email,
      token_to_reset_password: code,
      new_password: password,
      new_password_confirmation: password,
    });

  /** A user with a reset code waiting in the outbox. */
  async function userWithResetCode() {
    const user = await registerUser(t);
    expectOk(await requestReset(user.email));
    const code = tokenIn(await lastMailTo(t, user.email, /reset/i));
    return { user, code };
  }

  const loginStatus = async (email: string, password: string) =>
    (await post('login', { email, password })).status;

  describe('forgot password → reset', () => {
    it('mails a code, resets the password, voids old JWTs and proves the address', async () => {
      const user = await registerAndLogin(t);
      const res = await requestReset(user.email.toUpperCase());
      expect(expectOk(res)).toBeNull();

      const mail = await lastMailTo(t, user.email, /reset/i);
      expect(mail).toMatchObject({ status: 'sent', subject: 'Your password reset code' });
      expect(mail.html).toContain(tokenIn(mail));
      const code = tokenIn(mail);
      expect(code).toMatch(/^\d{8}$/);

      const [stored] = await storedTokens(t, user.uuid);
      expect(stored).toMatchObject({ purpose: 'reset_password', attempts: 0, used_at: null });
      expect(stored.token_hash).toMatch(/^[0-9a-f]{64}$/);
      expect(JSON.stringify(stored)).not.toContain(code);
      const lifetime = new Date(stored.expires_at).getTime() - Date.now();
      expect(lifetime).toBeGreaterThan(29 * 60_000);
      expect(lifetime).toBeLessThanOrEqual(30 * 60_000);

      expect(expectOk(await resetWith(user.email, code, 'brand-new-pass'))).toBeNull();

      expect(await loginStatus(user.email, user.password)).toBe(401);
      expect((await login(t, user.email, 'brand-new-pass')).uuid).toBe(user.uuid);
      expectError(
        await t.http.get(`${t.core}/user/${user.uuid}`).set(user.headers),
        401,
        'UNAUTHENTICATED',
      );
      const row = await storedUser(t, user.uuid);
      expect(row?.token_version).toBe(1);
      expect(row?.email_verified_at).not.toBeNull();
      expect((await storedTokens(t, user.uuid))[0].used_at).not.toBeNull();
    });

    it('answers an unknown address exactly like a known one, and mails nothing', async () => {
      const user = await registerUser(t);
      const known = await requestReset(user.email);
      const unknownEmail = `nobody-${Date.now()}@example.test`;
      const unknown = await requestReset(unknownEmail);
      expect(unknown.status).toBe(known.status);
      expect(unknown.body).toEqual(known.body);
      await lastMailTo(t, user.email);
      expect(await countMails(t, unknownEmail)).toBe(0);
      const rows = await t.dataSource.query(
        `SELECT count(*)::int AS n FROM user_tokens t
        JOIN users u ON u.uuid = t.user_uuid WHERE lower(u.email) = lower($1)`,
        [unknownEmail],
      );
      expect(rows[0].n).toBe(0);
    });

    it('refuses a reset for an unknown address like a wrong code', async () => {
      const { user, code } = await userWithResetCode();
      const wrong = await resetWith(user.email, code === '12345678' ? '87654321' : '12345678');
      const unknown = await resetWith(`nobody-${Date.now()}@example.test`, code);
      expectError(wrong, 422, 'UNPROCESSABLE');
      expectError(unknown, 422, 'UNPROCESSABLE');
      expect(unknown.body).toEqual(wrong.body);
    });

    it('refuses a wrong code: 422, password unchanged, one try spent', async () => {
      const { user, code } = await userWithResetCode();
      const before = await storedUser(t, user.uuid);
      const wrong = String((Number(code) % 89_999_999) + 10_000_000);
      const res = await resetWith(user.email, wrong);
      expectError(res, 422, 'UNPROCESSABLE');
      expect(res.body.error.details[0].field).toBe('token_to_reset_password');
      expect(await storedUser(t, user.uuid)).toEqual(before);
      expect((await storedTokens(t, user.uuid))[0]).toMatchObject({ attempts: 1, used_at: null });
      expect(await loginStatus(user.email, user.password)).toBe(200);
    });

    it('refuses a used code the second time: password stays the first new one', async () => {
      const { user, code } = await userWithResetCode();
      expectOk(await resetWith(user.email, code, 'first-new-pass'));
      const after = await storedUser(t, user.uuid);
      expectError(await resetWith(user.email, code, 'second-new-pass'), 422, 'UNPROCESSABLE');
      expect(await storedUser(t, user.uuid)).toEqual(after);
      expect(await loginStatus(user.email, 'first-new-pass')).toBe(200);
      expect(await loginStatus(user.email, 'second-new-pass')).toBe(401);
    });

    it('accepts a code until 30 minutes, refuses it after', async () => {
      const early = await userWithResetCode();
      clock.advance(29 * 60_000);
      expectOk(await resetWith(early.user.email, early.code));

      clock.reset();
      const late = await userWithResetCode();
      const before = await storedUser(t, late.user.uuid);
      clock.advance(30 * 60_000 + 1_000);
      expectError(await resetWith(late.user.email, late.code), 422, 'UNPROCESSABLE');
      expect(await storedUser(t, late.user.uuid)).toEqual(before);
    });

    it('dies after five wrong tries: the sixth is refused even with the right code', async () => {
      const { user, code } = await userWithResetCode();
      const before = await storedUser(t, user.uuid);
      const wrong = code === '11111111' ? '22222222' : '11111111';
      for (let i = 0; i < 5; i += 1) {
        expectError(await resetWith(user.email, wrong), 422, 'UNPROCESSABLE');
      }
      expectError(await resetWith(user.email, code), 422, 'UNPROCESSABLE');
      expect(await storedUser(t, user.uuid)).toEqual(before);
      expect((await storedTokens(t, user.uuid))[0]).toMatchObject({ attempts: 5, used_at: null });
    });

    it('takes the right code on the fifth try', async () => {
      const { user, code } = await userWithResetCode();
      const wrong = code === '11111111' ? '22222222' : '11111111';
      for (let i = 0; i < 4; i += 1) {
        expectError(await resetWith(user.email, wrong), 422, 'UNPROCESSABLE');
      }
      expectOk(await resetWith(user.email, code));
    });

    it('counts concurrent guesses exactly: no more than five are compared', async () => {
      const { user, code } = await userWithResetCode();
      const wrong = code === '11111111' ? '22222222' : '11111111';
      await Promise.all(Array.from({ length: 12 }, () => resetWith(user.email, wrong)));
      expect((await storedTokens(t, user.uuid))[0].attempts).toBe(5);
      expectError(await resetWith(user.email, code), 422, 'UNPROCESSABLE');
    });

    it('voids the previous code when a new one is sent', async () => {
      const { user, code: first } = await userWithResetCode();
      expectOk(await requestReset(user.email));
      const second = tokenIn(await lastMailTo(t, user.email, /reset/i));
      expect(second).not.toBe(first);
      expect(await storedTokens(t, user.uuid)).toHaveLength(1);
      expectError(await resetWith(user.email, first), 422, 'UNPROCESSABLE');
      expectOk(await resetWith(user.email, second));
    });

    it('takes a code sent as a JSON number', async () => {
      const { user, code } = await userWithResetCode();
      const res = await post('reset-password/validate', {
        email_address: user.email,
        token_to_reset_password: Number(code),
        new_password: 'numeric-pass',
        new_password_confirmation: 'numeric-pass',
      });
      expectOk(res);
    });

    it.each([
      [
        'a mismatched confirmation',
        { new_password_confirmation: 'other-pass' },
        'new_password_confirmation',
      ],
      [
        'a short password',
        { new_password: 'abc', new_password_confirmation: 'abc' },
        'new_password',
      ],
      ['a missing code', { token_to_reset_password: undefined }, 'token_to_reset_password'],
      ['an invalid email', { email_address: 'nope' }, 'email_address'],
    ])('refuses %s: 400 before spending a try', async (_label, change, field) => {
      const { user, code } = await userWithResetCode();
      const before = await storedUser(t, user.uuid);
      const res = await post('reset-password/validate', {
        email_address: user.email,
        token_to_reset_password: code,
        new_password: 'valid-pass',
        new_password_confirmation: 'valid-pass',
        ...change,
      });
      expectError(res, 400, 'VALIDATION_FAILED');
      expect(res.body.error.details.map((d: { field: string }) => d.field)).toContain(field);
      expect(await storedUser(t, user.uuid)).toEqual(before);
      expect((await storedTokens(t, user.uuid))[0].attempts).toBe(0);
    });

    it('refuses an invalid address on request: 400, nothing mailed', async () => {
      const mailsBefore = (await readMails(t)).length;
      expectError(await requestReset('not-an-email'), 400, 'VALIDATION_FAILED');
      expect((await readMails(t)).length).toBe(mailsBefore);
    });

    it('keeps codes per purpose: a reset code does not change the password through change-password', async () => {
      const user = await registerAndLogin(t);
      expectOk(await requestReset(user.email));
      const code = tokenIn(await lastMailTo(t, user.email, /reset/i));
      const before = await storedUser(t, user.uuid);
      const res = await post(
        'change-password/validate',
        {
          token_to_change_password: code,
          old_password: user.password,
          new_password: 'sneaky-pass',
          new_password_confirmation: 'sneaky-pass',
        },
        user.headers,
      );
      expectError(res, 422, 'UNPROCESSABLE');
      expect(await storedUser(t, user.uuid)).toEqual(before);
    });
  });

  describe('change password (Bearer) → validate', () => {
    const changeWith = (
      user: { password: string; headers: Record<string, string> },
      code: string,
      extra: object = {},
    ) =>
      post(
        'change-password/validate',
        {
          token_to_change_password: code,
          old_password: user.password,
          new_password: 'changed-pass',
          new_password_confirmation: 'changed-pass',
          ...extra,
        },
        user.headers,
      );

    async function userWithChangeCode() {
      const user = await registerAndLogin(t);
      expectOk(await post('change-password', {}, user.headers));
      const code = tokenIn(await lastMailTo(t, user.email, /change/i));
      return { user, code };
    }

    it('changes the password with code and current password; old password and old JWT are refused', async () => {
      const user = await registerAndLogin(t);
      const res = await post(
        'change-password',
        { email_address: user.email.toUpperCase() },
        user.headers,
      );
      expect(expectOk(res)).toBeNull();
      const mail = await lastMailTo(t, user.email, /change/i);
      expect(mail.subject).toBe('Your password change code');
      const code = tokenIn(mail);

      expect(expectOk(await changeWith(user, code, { email_address: user.email }))).toBeNull();

      expect(await loginStatus(user.email, user.password)).toBe(401);
      expect(await loginStatus(user.email, 'changed-pass')).toBe(200);
      expectError(
        await t.http.get(`${t.core}/user/${user.uuid}`).set(user.headers),
        401,
        'UNAUTHENTICATED',
      );
      expect((await storedUser(t, user.uuid))?.token_version).toBe(1);
    });

    it('refuses a wrong current password: 422 naming old_password, nothing changed, a try spent', async () => {
      const { user, code } = await userWithChangeCode();
      const before = await storedUser(t, user.uuid);
      const res = await changeWith({ ...user, password: 'not-my-password' }, code);
      expectError(res, 422, 'UNPROCESSABLE');
      expect(res.body.error.details).toEqual([
        { field: 'old_password', message: expect.any(String) },
      ]);
      expect(await storedUser(t, user.uuid)).toEqual(before);
      expect((await storedTokens(t, user.uuid))[0]).toMatchObject({ attempts: 1, used_at: null });
      // The session still works, and the right password with the same code then succeeds.
      expectOk(await t.http.get(`${t.core}/user/${user.uuid}`).set(user.headers));
      expectOk(await changeWith(user, code));
    });

    it('refuses a wrong, reused or expired code: nothing changed', async () => {
      const { user, code } = await userWithChangeCode();
      const before = await storedUser(t, user.uuid);
      const wrong = code === '11111111' ? '22222222' : '11111111';
      expectError(await changeWith(user, wrong), 422, 'UNPROCESSABLE');
      clock.advance(31 * 60_000);
      expectError(await changeWith(user, code), 422, 'UNPROCESSABLE');
      expect(await storedUser(t, user.uuid)).toEqual(before);

      clock.reset();
      const second = await userWithChangeCode();
      expectOk(await changeWith(second.user, second.code));
      const afterFirstUse = await storedUser(t, second.user.uuid);
      const fresh = await login(t, second.user.email, 'changed-pass');
      const res = await changeWith(
        { password: 'changed-pass', headers: apiHeaders(t, fresh.access_token) },
        second.code,
        { new_password: 'third-pass', new_password_confirmation: 'third-pass' },
      );
      expectError(res, 422, 'UNPROCESSABLE');
      expect(await storedUser(t, second.user.uuid)).toEqual(afterFirstUse);
    });

    it('needs a Bearer token for both steps', async () => {
      const user = await registerUser(t);
      expectError(
        await post('change-password', { email_address: user.email }),
        401,
        'UNAUTHENTICATED',
      );
      expectError(
        await post('change-password/validate', {
          token_to_change_password: '12345678',
          old_password: user.password,
          new_password: 'x-pass',
          new_password_confirmation: 'x-pass',
        }),
        401,
        'UNAUTHENTICATED',
      );
      expect(await countMails(t, user.email)).toBe(0);
    });

    it('refuses a mismatched confirmation: 400 before spending a try', async () => {
      const { user, code } = await userWithChangeCode();
      const before = await storedUser(t, user.uuid);
      const res = await changeWith(user, code, { new_password_confirmation: 'different' });
      expectError(res, 400, 'VALIDATION_FAILED');
      expect(await storedUser(t, user.uuid)).toEqual(before);
      expect((await storedTokens(t, user.uuid))[0].attempts).toBe(0);
    });
  });

  describe('register → login → verify email', () => {
    it('verifies the address with the mailed code', async () => {
      const user = await registerAndLogin(t);
      const res = await post('verify-email-address', {}, user.headers);
      expect(expectOk(res)).toBeNull();
      const mail = await lastMailTo(t, user.email, /verify/i);
      expect(mail.subject).toBe('Verify your email address');

      const verified = await post(
        'verify-email-address/validate',
        { token_to_verify_email_address: tokenIn(mail), email_address: user.email },
        user.headers,
      );
      const data = expectOk(verified);
      expect(Object.keys(data)).toEqual(['email_verified_at']);
      expect(new Date(data.email_verified_at).toISOString()).toBe(data.email_verified_at);

      const profile = expectOk(await t.http.get(`${t.core}/user/${user.uuid}`).set(user.headers));
      expect(profile.email_verified_at).toBe(data.email_verified_at);
      expect((await login(t, user.email, user.password)).email_verified_at).toBe(
        data.email_verified_at,
      );
      // Verifying does not touch the password or sessions.
      expect((await storedUser(t, user.uuid))?.token_version).toBe(0);
    });

    it('mails nothing more once the address is verified', async () => {
      const user = await registerAndLogin(t);
      expectOk(await post('verify-email-address', {}, user.headers));
      const code = tokenIn(await lastMailTo(t, user.email, /verify/i));
      expectOk(
        await post(
          'verify-email-address/validate',
          { token_to_verify_email_address: code },
          user.headers,
        ),
      );
      const mails = await countMails(t, user.email);
      const again = await post('verify-email-address', {}, user.headers);
      expect(expectOk(again)).toBeNull();
      expect(again.body.message).toMatch(/already verified/i);
      expect(await countMails(t, user.email)).toBe(mails);
    });

    it('refuses a wrong or expired code: not verified', async () => {
      const user = await registerAndLogin(t);
      expectOk(await post('verify-email-address', {}, user.headers));
      const code = tokenIn(await lastMailTo(t, user.email, /verify/i));
      const wrong = code === '11111111' ? '22222222' : '11111111';
      const res = await post(
        'verify-email-address/validate',
        { token_to_verify_email_address: wrong },
        user.headers,
      );
      expectError(res, 422, 'UNPROCESSABLE');
      expect(res.body.error.details[0].field).toBe('token_to_verify_email_address');
      clock.advance(30 * 60_000 + 1_000);
      expectError(
        await post(
          'verify-email-address/validate',
          { token_to_verify_email_address: code },
          user.headers,
        ),
        422,
        'UNPROCESSABLE',
      );
      expect((await storedUser(t, user.uuid))?.email_verified_at).toBeNull();
    });

    it("refuses another user's address in the body: 403, not verified", async () => {
      const a = await registerAndLogin(t);
      const b = await registerAndLogin(t);
      expectOk(await post('verify-email-address', {}, b.headers));
      const code = tokenIn(await lastMailTo(t, b.email, /verify/i));
      const res = await post(
        'verify-email-address/validate',
        { token_to_verify_email_address: code, email_address: a.email },
        b.headers,
      );
      expectError(res, 403, 'FORBIDDEN');
      expect((await storedUser(t, b.uuid))?.email_verified_at).toBeNull();
      expect((await storedUser(t, a.uuid))?.email_verified_at).toBeNull();
    });
  });
});
