import { randomBytes } from 'node:crypto';
import { TokenService } from '../../src/auth/token.service';
import { UserEntity } from '../../src/account/user.entity';
import { TestApp } from './test-app';

export interface TestUser {
  uuid: string;
  email: string;
  username: string;
  name: string;
  token: string;
  /** Headers for a call as this user: API key and Bearer token. */
  headers: Record<string, string>;
}

/**
 * A user stored directly and a token issued by the service's own TokenService;
 * for tests whose subject is not the account flows. The hash is not a real
 * password's, so this user cannot log in through /user/login.
 */
export async function createUser(
  t: TestApp,
  overrides: Partial<UserEntity> = {},
): Promise<TestUser> {
  const suffix = randomBytes(5).toString('hex');
  const repo = t.dataSource.getRepository(UserEntity);
  const user = await repo.save(
    repo.create({
      email: `user-${suffix}@example.test`,
      username: `user_${suffix}`,
      name: `User ${suffix}`,
      passwordHash: '$argon2id$v=19$m=65536,t=3,p=4$not-a-real-hash',
      metaData: {},
      ...overrides,
    }),
  );
  const { accessToken } = await t.app.get(TokenService).issue(user);
  return {
    uuid: user.uuid,
    email: user.email,
    username: user.username,
    name: user.name,
    token: accessToken,
    headers: apiHeaders(t, accessToken),
  };
}

/** x-api-key (and Bearer when a token is given). */
export function apiHeaders(t: TestApp, token?: string): Record<string, string> {
  return {
    'x-api-key': t.config.apiKeys[0],
    ...(token ? { authorization: `Bearer ${token}` } : {}),
  };
}
