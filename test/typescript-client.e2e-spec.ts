import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createClient } from '../clients/typescript/src';
import { startTestApp, TestApp, TEST_API_KEY } from './support/test-app';

/** The published client package against the real service: the wrapper sends the right credentials. */
describe('the TypeScript client package', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t?.close());

  it('signs up, logs in and reads the caller’s profile with the key and the token it was given', async () => {
    const suffix = randomUUID().slice(0, 8);
    const email = `client-${suffix}@example.test`;
    const guest = createClient({ baseUrl: `${t.baseUrl}/`, apiKey: TEST_API_KEY });

    const signUp = await guest.POST('/public/api/v1/svc/user/register', {
      body: {
        email,
        password: 'pass-1234',
        password_confirmation: 'pass-1234',
        name: 'Client',
        username: `client_${suffix}`,
      },
    });
    expect(signUp.response.status).toBe(201);

    const login = await guest.POST('/public/api/v1/svc/user/login', {
      body: { email, password: 'pass-1234' },
    });
    expect(login.response.status).toBe(200);
    const session = login.data!.data;

    const owner = createClient({
      baseUrl: t.baseUrl,
      apiKey: TEST_API_KEY,
      accessToken: session.access_token,
    });
    const profile = await owner.GET('/public/api/v1/svc/user/{uuid}', {
      params: { path: { uuid: session.uuid } },
    });
    expect(profile.response.status).toBe(200);
    expect(profile.data?.data.email).toBe(email);

    const withoutToken = await guest.GET('/public/api/v1/svc/user/{uuid}', {
      params: { path: { uuid: session.uuid } },
    });
    expect(withoutToken.response.status).toBe(401);
    expect(withoutToken.error?.error.code).toBe('UNAUTHENTICATED');

    const wrongKey = createClient({ baseUrl: t.baseUrl, apiKey: 'not-a-configured-key-000' });
    const refused = await wrongKey.POST('/public/api/v1/svc/user/login', {
      body: { email, password: 'pass-1234' },
    });
    expect(refused.response.status).toBe(401);
    expect(refused.error?.error.code).toBe('API_KEY_INVALID');
  });

  it('npm run example runs the quick start, again and again on one database', async () => {
    const cwd = join(__dirname, '..', 'clients', 'typescript');
    for (let run = 0; run < 2; run++) {
      const { stdout } = await promisify(execFile)('npm', ['run', '--silent', 'example'], {
        cwd,
        env: { ...process.env, SERVICE_URL: t.baseUrl, API_KEY: TEST_API_KEY },
      });
      expect(stdout.trim()).toMatch(
        /^Grace’s Grill: order \S+ \(3000\.00 NGN, pending\); the owner has 1 order\(s\)$/,
      );
    }
  });
});
