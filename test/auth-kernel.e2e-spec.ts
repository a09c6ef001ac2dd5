import { JwtService } from '@nestjs/jwt';
import { DiscoveryService, MetadataScanner } from '@nestjs/core';
import { METHOD_METADATA } from '@nestjs/common/constants';
import { AUTH_KEY } from '../src/auth/auth.decorator';
import { UserEntity } from '../src/account/user.entity';
import { ProbeModule } from './support/probe.module';
import { expectError, expectOk } from './support/expect';
import { apiHeaders, createUser } from './support/factory';
import { startTestApp, TEST_JWT_SECRET, TestApp } from './support/test-app';

// R1: namespace.
// R7: api key everywhere.
describe('auth kernel: the API key on every call, Bearer tokens', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({}, { extraModules: [ProbeModule] });
  });
  afterAll(() => t?.close());

  describe('API key', () => {
    it('refuses a core path without x-api-key: 401 API_KEY_INVALID', async () => {
      expectError(await t.http.get(`${t.core}/probe/key`), 401, 'API_KEY_INVALID');
    });

    it('refuses an unknown key', async () => {
      const res = await t.http
        .get(`${t.core}/probe/key`)
        .set('x-api-key', 'not-the-key-0123456789');
      expectError(res, 401, 'API_KEY_INVALID');
    });

    it('does not take the key from the query on ordinary routes', async () => {
      const res = await t.http.get(`${t.core}/probe/key`).query({ api_key: t.config.apiKeys[0] });
      expectError(res, 401, 'API_KEY_INVALID');
    });

    it('accepts the configured key', async () => {
      expect(expectOk(await t.http.get(`${t.core}/probe/key`).set(apiHeaders(t)))).toEqual({
        ok: true,
      });
    });
  });

  describe('Bearer token', () => {
    const sign = (payload: object, options: { secret?: string; expiresIn?: number } = {}) =>
      new JwtService().sign(payload, {
        secret: options.secret ?? TEST_JWT_SECRET,
        algorithm: 'HS256',
        expiresIn: options.expiresIn ?? 3600,
      });

    it('answers with the caller for a valid token', async () => {
      const user = await createUser(t);
      const res = await t.http.get(`${t.core}/probe/bearer`).set(user.headers);
      expect(expectOk(res)).toEqual({ uuid: user.uuid });
    });

    it.each([
      ['missing', undefined],
      ['malformed', 'Bearer not.a.jwt'],
      ['not a Bearer scheme', 'Basic dXNlcjpwYXNz'],
    ])('refuses a %s token: 401 UNAUTHENTICATED', async (_label, authorization) => {
      const req = t.http.get(`${t.core}/probe/bearer`).set(apiHeaders(t));
      if (authorization) req.set('authorization', authorization);
      expectError(await req, 401, 'UNAUTHENTICATED');
    });

    it('refuses an expired, tampered or foreign-signed token', async () => {
      const user = await createUser(t);
      const expired = sign({ sub: user.uuid, ver: 0 }, { expiresIn: -10 });
      const foreign = sign(
        { sub: user.uuid, ver: 0 },
        { secret: 'another-secret-0123456789abcdef0123' },
      );
      const [head, , signature] = user.token.split('.');
      const forgedBody = Buffer.from(
        JSON.stringify({ sub: user.uuid, ver: 0, exp: 4102444800 }),
      ).toString('base64url');
      const tampered = `${head}.${forgedBody}.${signature}`;
      for (const token of [expired, foreign, tampered]) {
        const res = await t.http.get(`${t.core}/probe/bearer`).set(apiHeaders(t, token));
        expectError(res, 401, 'UNAUTHENTICATED');
      }
    });

    it('refuses a token whose version the user has moved past (a password reset or change does) or whose user is gone', async () => {
      const user = await createUser(t);
      await t.dataSource
        .getRepository(UserEntity)
        .increment({ uuid: user.uuid }, 'tokenVersion', 1);
      expectError(
        await t.http.get(`${t.core}/probe/bearer`).set(user.headers),
        401,
        'UNAUTHENTICATED',
      );

      const ghost = sign({ sub: '00000000-0000-4000-8000-000000000000', ver: 0 });
      expectError(
        await t.http.get(`${t.core}/probe/bearer`).set(apiHeaders(t, ghost)),
        401,
        'UNAUTHENTICATED',
      );
    });

    it('reads an optional token when sent and refuses a bad one', async () => {
      expect(expectOk(await t.http.get(`${t.core}/probe/optional`).set(apiHeaders(t)))).toEqual({
        user: null,
      });
      const user = await createUser(t);
      expect(expectOk(await t.http.get(`${t.core}/probe/optional`).set(user.headers))).toEqual({
        user: { uuid: user.uuid },
      });
      const bad = await t.http.get(`${t.core}/probe/optional`).set(apiHeaders(t, 'garbage'));
      expectError(bad, 401, 'UNAUTHENTICATED');
    });

    it('takes key and token from the query only where the route allows it', async () => {
      const user = await createUser(t);
      const query = { api_key: t.config.apiKeys[0], access_token: user.token };
      expect(expectOk(await t.http.get(`${t.core}/probe/query`).query(query))).toEqual({
        uuid: user.uuid,
      });
      const elsewhere = await t.http.get(`${t.core}/probe/bearer`).set(apiHeaders(t)).query(query);
      expectError(elsewhere, 401, 'UNAUTHENTICATED');
    });
  });

  it('refuses a route that declares no auth', async () => {
    const user = await createUser(t);
    expectError(await t.http.get(`${t.core}/probe/undeclared`).set(user.headers), 403, 'FORBIDDEN');
  });

  it('every route of the service declares its auth, and operation ids are unique', async () => {
    const service = await startTestApp();
    try {
      const discovery = service.app.get(DiscoveryService);
      const scanner = service.app.get(MetadataScanner);
      const undeclared: string[] = [];
      const names = new Map<string, string>();
      let routes = 0;
      for (const wrapper of discovery.getControllers()) {
        const controller = wrapper.metatype as { prototype: object; name: string };
        for (const method of scanner.getAllMethodNames(controller.prototype)) {
          const handler = (controller.prototype as Record<string, unknown>)[method] as object;
          if (Reflect.getMetadata(METHOD_METADATA, handler) === undefined) continue;
          routes++;
          const declared =
            Reflect.getMetadata(AUTH_KEY, handler) ?? Reflect.getMetadata(AUTH_KEY, controller);
          if (!declared) undeclared.push(`${controller.name}.${method}`);
          const previous = names.get(method);
          if (previous)
            undeclared.push(`${controller.name}.${method} reuses the operation id of ${previous}`);
          names.set(method, `${controller.name}.${method}`);
        }
      }
      expect(routes).toBeGreaterThan(0);
      expect(undeclared).toEqual([]);
    } finally {
      await service.close();
    }
  });
});

describe('URL spaces follow API_NAMESPACE', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ API_NAMESPACE: 'acme' }, { extraModules: [ProbeModule] });
  });
  afterAll(() => t?.close());

  it('serves the core and both middleware spaces under the namespace', async () => {
    expect(expectOk(await t.http.get('/public/api/v1/acme/probe/key').set(apiHeaders(t)))).toEqual({
      ok: true,
    });
    expect(
      expectOk(await t.http.get('/api/v1/acme/file-manager/probe').set(apiHeaders(t))),
    ).toEqual({
      space: 'files',
    });
    expect(expectOk(await t.http.get('/plugins/acme/acme-init/probe').set(apiHeaders(t)))).toEqual({
      space: 'orders',
    });
    expectError(
      await t.http.get('/public/api/v1/svc/probe/key').set(apiHeaders(t)),
      404,
      'NOT_FOUND',
    );
  });
});
