import { JwtService } from '@nestjs/jwt';
import {
  countUsers,
  login,
  registerAndLogin,
  registerBody,
  registerUser,
  storedTokens,
  storedUser,
} from './support/account';
import { expectError, expectOk } from './support/expect';
import { apiHeaders } from './support/factory';
import { countMails, lastMailTo, tokenIn } from './support/mail';
import { startTestApp, TEST_JWT_SECRET, TestApp } from './support/test-app';

const SECRET_LOOKING = /password|token_hash|\$argon2/i;

// R8: identity providers.
describe('accounts: register, login, profile', () => {
  let t: TestApp;

  beforeAll(async () => {
    // Many logins from one address: the limits have their own spec.
    t = await startTestApp({ RATE_LIMIT_AUTH_PER_MINUTE: '100000' });
  });
  afterAll(() => t?.close());

  const register = (body: Record<string, unknown>, headers = apiHeaders(t)) =>
    t.http.post(`${t.core}/user/register`).set(headers).send(body);

  describe('POST /user/register', () => {
    it('answers 201 with the new user and no token, and stores an argon2id hash', async () => {
      const body = registerBody({ meta_data: { plan: 'free', tags: ['a'] } });
      const data = expectOk(await register(body), 201);
      expect(Object.keys(data).sort()).toEqual(
        ['created_at', 'email', 'email_verified_at', 'name', 'username', 'uuid'].sort(),
      );
      expect(data).toMatchObject({
        email: body.email,
        name: body.name,
        username: body.username,
        email_verified_at: null,
      });
      expect(data.uuid).toMatch(/^[0-9a-f-]{36}$/);
      expect(new Date(data.created_at).toISOString()).toBe(data.created_at);
      const row = await storedUser(t, data.uuid);
      expect(row?.password_hash).toMatch(/^\$argon2id\$/);
      expect(row?.password_hash).not.toContain(String(body.password));
      expect(row?.meta_data).toEqual({ plan: 'free', tags: ['a'] });
      expect(row?.token_version).toBe(0);
    });

    it('ignores unknown and server-owned fields', async () => {
      const body = registerBody({
        uuid: '00000000-0000-4000-8000-000000000001',
        created_by: 'someone',
        email_verified_at: '2020-01-01T00:00:00Z',
        token_version: 7,
      });
      const data = expectOk(await register(body), 201);
      expect(data.uuid).not.toBe('00000000-0000-4000-8000-000000000001');
      expect(data.email_verified_at).toBeNull();
      const row = await storedUser(t, data.uuid);
      expect(row).toMatchObject({ email_verified_at: null, token_version: 0 });
    });

    it.each([
      [
        'a password shorter than 4 characters',
        { password: 'abc', password_confirmation: 'abc' },
        'password',
      ],
      [
        'a password longer than 256 characters',
        { password: 'x'.repeat(257), password_confirmation: 'x'.repeat(257) },
        'password',
      ],
      [
        'a confirmation that differs',
        { password_confirmation: 'other-pass' },
        'password_confirmation',
      ],
      ['a missing confirmation', { password_confirmation: undefined }, 'password_confirmation'],
      ['an invalid email', { email: 'not-an-email' }, 'email'],
      ['a missing username', { username: undefined }, 'username'],
      ['an empty name', { name: '   ' }, 'name'],
      ['meta_data that is neither an object nor an array', { meta_data: 'a, b' }, 'meta_data'],
      ['meta_data over 16 KiB', { meta_data: { blob: 'x'.repeat(16 * 1024) } }, 'meta_data'],
    ])(
      'refuses %s: 400 VALIDATION_FAILED naming the field, nothing stored',
      async (_label, change, field) => {
        const before = await countUsers(t);
        const body = registerBody(change);
        const res = await register(body);
        expectError(res, 400, 'VALIDATION_FAILED');
        expect(res.body.error.details.map((d: { field: string }) => d.field)).toContain(field);
        expect(await countUsers(t)).toBe(before);
      },
    );

    it('refuses an email registered in another letter case: 409 CONFLICT, nothing stored', async () => {
      const first = await registerUser(t);
      const before = await countUsers(t);
      const res = await register(registerBody({ email: first.email.toUpperCase() }));
      expectError(res, 409, 'CONFLICT');
      expect(res.body.error.details).toEqual([{ field: 'email', message: expect.any(String) }]);
      expect(await countUsers(t)).toBe(before);
    });

    it('refuses a username already taken (any letter case): 409 CONFLICT, nothing stored', async () => {
      const first = await registerUser(t);
      const before = await countUsers(t);
      const res = await register(registerBody({ username: first.username.toUpperCase() }));
      expectError(res, 409, 'CONFLICT');
      expect(res.body.error.details).toEqual([{ field: 'username', message: expect.any(String) }]);
      expect(await countUsers(t)).toBe(before);
    });

    it('stores one user when the same email registers concurrently', async () => {
      const email = `race-${Date.now()}@example.test`;
      const results = await Promise.all(
        Array.from({ length: 4 }, () => register(registerBody({ email }))),
      );
      expect(results.map((res) => res.status).sort()).toEqual([201, 409, 409, 409]);
      for (const res of results.filter((r) => r.status === 409)) expectError(res, 409, 'CONFLICT');
      const rows = await t.dataSource.query(`SELECT 1 FROM users WHERE lower(email) = lower($1)`, [
        email,
      ]);
      expect(rows).toHaveLength(1);
    });

    it('needs the API key', async () => {
      const before = await countUsers(t);
      expectError(await register(registerBody(), {}), 401, 'API_KEY_INVALID');
      expect(await countUsers(t)).toBe(before);
    });
  });

  describe('POST /user/login', () => {
    it('answers exactly the fields the client reads, with a JWT for the user', async () => {
      const user = await registerUser(t);
      const data = await login(t, user.email, user.password);
      expect(Object.keys(data).sort()).toEqual(
        [
          'access_token',
          'email',
          'email_verified_at',
          'expires_in',
          'name',
          'token_type',
          'username',
          'uuid',
        ].sort(),
      );
      expect(data).toMatchObject({
        token_type: 'Bearer',
        expires_in: t.config.jwtExpiresInSeconds,
        uuid: user.uuid,
        email: user.email,
        name: user.name,
        username: user.username,
        email_verified_at: null,
      });
      const claims = new JwtService().verify(data.access_token, { secret: TEST_JWT_SECRET });
      expect(claims.sub).toBe(user.uuid);
      const me = await t.http
        .get(`${t.core}/user/${user.uuid}`)
        .set(apiHeaders(t, data.access_token));
      expect(expectOk(me).uuid).toBe(user.uuid);
    });

    it('takes the email in any letter case', async () => {
      const user = await registerUser(t);
      expect((await login(t, user.email.toUpperCase(), user.password)).uuid).toBe(user.uuid);
    });

    it('answers the same 401 INVALID_CREDENTIALS for a wrong password and an unknown email', async () => {
      const user = await registerUser(t);
      const before = await storedUser(t, user.uuid);
      const wrong = await t.http
        .post(`${t.core}/user/login`)
        .set(apiHeaders(t))
        .send({ email: user.email, password: 'not-the-password' });
      const unknown = await t.http
        .post(`${t.core}/user/login`)
        .set(apiHeaders(t))
        .send({ email: `nobody-${Date.now()}@example.test`, password: 'whatever' });
      expectError(wrong, 401, 'INVALID_CREDENTIALS');
      expectError(unknown, 401, 'INVALID_CREDENTIALS');
      expect(unknown.body).toEqual(wrong.body);
      expect(await storedUser(t, user.uuid)).toEqual(before);
    });

    it('refuses a body without email or password: 400 VALIDATION_FAILED', async () => {
      const res = await t.http
        .post(`${t.core}/user/login`)
        .set(apiHeaders(t))
        .send({ email: 'a@b.test' });
      expectError(res, 400, 'VALIDATION_FAILED');
      expect(res.body.error.details.map((d: { field: string }) => d.field)).toEqual(['password']);
    });
  });

  describe('GET and PUT /user/{uuid}', () => {
    it('answers the caller without secrets', async () => {
      const user = await registerAndLogin(t, { meta_data: { city: 'Lagos' } });
      const res = await t.http.get(`${t.core}/user/${user.uuid}`).set(user.headers);
      const data = expectOk(res);
      expect(data).toEqual({
        uuid: user.uuid,
        email: user.email,
        name: user.name,
        username: user.username,
        meta_data: { city: 'Lagos' },
        email_verified_at: null,
        created_at: expect.any(String),
        updated_at: expect.any(String),
      });
      expect(JSON.stringify(res.body)).not.toMatch(SECRET_LOOKING);
    });

    it('updates name, username and meta_data (replaced whole), nothing else', async () => {
      const user = await registerAndLogin(t, { meta_data: { a: 1, b: 2 } });
      const before = await storedUser(t, user.uuid);
      const res = await t.http
        .put(`${t.core}/user/${user.uuid}`)
        .set(user.headers)
        .send({
          name: 'New Name',
          username: `renamed_${user.username}`,
          meta_data: { c: 3 },
          email: 'taken-over@example.test',
          password: 'new-password',
          email_verified_at: '2020-01-01T00:00:00Z',
        });
      const data = expectOk(res);
      expect(data).toMatchObject({
        name: 'New Name',
        username: `renamed_${user.username}`,
        meta_data: { c: 3 },
        email: user.email,
        email_verified_at: null,
      });
      expect(JSON.stringify(res.body)).not.toMatch(SECRET_LOOKING);
      const after = await storedUser(t, user.uuid);
      expect(after).toMatchObject({
        email: user.email,
        password_hash: before?.password_hash,
        token_version: before?.token_version,
        email_verified_at: null,
        meta_data: { c: 3 },
      });
    });

    it('keeps fields that are not sent', async () => {
      const user = await registerAndLogin(t, { meta_data: { keep: true } });
      const data = expectOk(
        await t.http
          .put(`${t.core}/user/${user.uuid}`)
          .set(user.headers)
          .send({ name: 'Only Name' }),
      );
      expect(data).toMatchObject({
        name: 'Only Name',
        username: user.username,
        meta_data: { keep: true },
      });
    });

    it('treats a null name or username as not sent, and null meta_data as cleared', async () => {
      const user = await registerAndLogin(t, { meta_data: { a: 1 } });
      const data = expectOk(
        await t.http
          .put(`${t.core}/user/${user.uuid}`)
          .set(user.headers)
          .send({ name: null, username: null, meta_data: null }),
      );
      expect(data).toMatchObject({ name: user.name, username: user.username, meta_data: {} });
    });

    it('refuses a username another user holds: 409 CONFLICT, nothing changed', async () => {
      const other = await registerUser(t);
      const user = await registerAndLogin(t);
      const before = await storedUser(t, user.uuid);
      const res = await t.http
        .put(`${t.core}/user/${user.uuid}`)
        .set(user.headers)
        .send({ username: other.username.toUpperCase(), name: 'Changed' });
      expectError(res, 409, 'CONFLICT');
      expect(await storedUser(t, user.uuid)).toEqual(before);
    });

    it('refuses a bad body: 400 VALIDATION_FAILED, nothing changed', async () => {
      const user = await registerAndLogin(t);
      const before = await storedUser(t, user.uuid);
      const res = await t.http
        .put(`${t.core}/user/${user.uuid}`)
        .set(user.headers)
        .send({ name: '', meta_data: 'not an object' });
      expectError(res, 400, 'VALIDATION_FAILED');
      expect(await storedUser(t, user.uuid)).toEqual(before);
    });

    it('needs a Bearer token', async () => {
      const user = await registerUser(t);
      expectError(
        await t.http.get(`${t.core}/user/${user.uuid}`).set(apiHeaders(t)),
        401,
        'UNAUTHENTICATED',
      );
    });
  });

  describe('two users (IDOR)', () => {
    it('user B cannot read user A: 403 FORBIDDEN', async () => {
      const a = await registerAndLogin(t);
      const b = await registerAndLogin(t);
      const res = await t.http.get(`${t.core}/user/${a.uuid}`).set(b.headers);
      expectError(res, 403, 'FORBIDDEN');
      expect(JSON.stringify(res.body)).not.toContain(a.email);
    });

    it('user B cannot change user A: 403 FORBIDDEN, A unchanged', async () => {
      const a = await registerAndLogin(t);
      const b = await registerAndLogin(t);
      const before = await storedUser(t, a.uuid);
      const res = await t.http
        .put(`${t.core}/user/${a.uuid}`)
        .set(b.headers)
        .send({ name: 'Hijacked', meta_data: { owned: true } });
      expectError(res, 403, 'FORBIDDEN');
      expect(await storedUser(t, a.uuid)).toEqual(before);
    });

    it('an unknown uuid is 403 too, so existence is not revealed', async () => {
      const b = await registerAndLogin(t);
      expectError(
        await t.http.get(`${t.core}/user/00000000-0000-4000-8000-000000000000`).set(b.headers),
        403,
        'FORBIDDEN',
      );
    });

    it("user B cannot start A's password change or email verification: 403, no code, no mail", async () => {
      const a = await registerAndLogin(t);
      const b = await registerAndLogin(t);
      for (const path of ['change-password', 'verify-email-address']) {
        const res = await t.http
          .post(`${t.core}/user/${path}`)
          .set(b.headers)
          .send({ email_address: a.email });
        expectError(res, 403, 'FORBIDDEN');
      }
      expect(await storedTokens(t, a.uuid)).toEqual([]);
      expect(await storedTokens(t, b.uuid)).toEqual([]);
      expect(await countMails(t, a.email)).toBe(0);
      expect(await countMails(t, b.email)).toBe(0);
    });

    it("user B cannot finish A's password change with A's code: refused, A unchanged", async () => {
      const a = await registerAndLogin(t);
      const b = await registerAndLogin(t);
      expectOk(await t.http.post(`${t.core}/user/change-password`).set(a.headers).send({}));
      const code = tokenIn(await lastMailTo(t, a.email, /change/i));
      const before = await storedUser(t, a.uuid);
      const body = {
        token_to_change_password: code,
        old_password: a.password,
        new_password: 'b-chose-this',
        new_password_confirmation: 'b-chose-this',
      };
      expectError(
        await t.http
          .post(`${t.core}/user/change-password/validate`)
          .set(b.headers)
          .send({ ...body, email_address: a.email }),
        403,
        'FORBIDDEN',
      );
      const res = await t.http
        .post(`${t.core}/user/change-password/validate`)
        .set(b.headers)
        .send(body);
      expectError(res, 422, 'UNPROCESSABLE');
      expect(await storedUser(t, a.uuid)).toEqual(before);
      expect(await storedUser(t, b.uuid)).toMatchObject({ token_version: 0 });
      // A's code was not spent by B's attempts.
      const [token] = await storedTokens(t, a.uuid);
      expect(token).toMatchObject({ attempts: 0, used_at: null });
    });
  });

  describe('POST /user/oauth/{provider}/callback', () => {
    it('answers 404 NOT_FOUND: identity-provider sign-in is not enabled', async () => {
      const res = await t.http
        .post(`${t.core}/user/oauth/google/callback`)
        .set(apiHeaders(t))
        .send({ code: 'abc', state: 'xyz' });
      expectError(res, 404, 'NOT_FOUND');
      expect(res.body.message).toMatch(/identity-provider sign-in is not enabled/i);
    });

    it('needs the API key', async () => {
      expectError(
        await t.http.post(`${t.core}/user/oauth/google/callback`).send({}),
        401,
        'API_KEY_INVALID',
      );
    });
  });
});
