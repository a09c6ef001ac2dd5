import { randomBytes } from 'node:crypto';
import { expectOk } from './expect';
import { apiHeaders } from './factory';
import { randomIp } from './order';
import { TestApp } from './test-app';

export interface RegisteredUser {
  uuid: string;
  email: string;
  username: string;
  name: string;
  password: string;
}

export interface LoggedInUser extends RegisteredUser {
  token: string;
  /** x-api-key and Bearer. */
  headers: Record<string, string>;
}

/** A register body with unique email and username; override any field. */
export function registerBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const suffix = randomBytes(5).toString('hex');
  return {
    email: `owner-${suffix}@example.test`,
    password: 'secret-pass',
    password_confirmation: 'secret-pass',
    name: `Owner ${suffix}`,
    username: `owner_${suffix}`,
    ...overrides,
  };
}

/** Registers through POST /user/register. */
export async function registerUser(
  t: TestApp,
  overrides: Record<string, unknown> = {},
): Promise<RegisteredUser> {
  const body = registerBody(overrides);
  // Sign-up is limited per IP: each test user comes from an address of its own.
  const res = await t.http
    .post(`${t.core}/user/register`)
    .set({ ...apiHeaders(t), 'x-forwarded-for': randomIp() })
    .send(body);
  const data = expectOk(res, 201);
  return {
    uuid: data.uuid,
    email: String(body.email),
    username: String(body.username),
    name: String(body.name),
    password: String(body.password),
  };
}

/** POST /user/login; the answer's data. */
export async function login(t: TestApp, email: string, password: string) {
  const res = await t.http
    .post(`${t.core}/user/login`)
    .set(apiHeaders(t))
    .send({ email, password });
  return expectOk(res);
}

/** Registers and logs in through the API. */
export async function registerAndLogin(
  t: TestApp,
  overrides: Record<string, unknown> = {},
): Promise<LoggedInUser> {
  const user = await registerUser(t, overrides);
  const data = await login(t, user.email, user.password);
  return { ...user, token: data.access_token, headers: apiHeaders(t, data.access_token) };
}

/** The users row as stored (secrets included), for checks that nothing changed. */
export async function storedUser(t: TestApp, uuid: string) {
  const rows = await t.dataSource.query(`SELECT * FROM users WHERE uuid = $1`, [uuid]);
  return rows[0] as Record<string, any> | undefined;
}

export async function countUsers(t: TestApp): Promise<number> {
  const rows = await t.dataSource.query(`SELECT count(*)::int AS n FROM users`);
  return rows[0].n;
}

export async function storedTokens(t: TestApp, userUuid: string) {
  return (await t.dataSource.query(
    `SELECT * FROM user_tokens WHERE user_uuid = $1 ORDER BY purpose`,
    [userUuid],
  )) as Array<Record<string, any>>;
}
