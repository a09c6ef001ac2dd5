import { ProbeModule } from './support/probe.module';
import { expectError, expectOk } from './support/expect';
import { apiHeaders } from './support/factory';
import { startTestApp, TestApp } from './support/test-app';

// R2: one process, one port.
// R3: cors.
// R4: errors.
// R5: request id.
describe('HTTP conventions: envelope, errors, headers', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({}, { extraModules: [ProbeModule] });
  });
  afterAll(() => t?.close());

  it('answers an unknown route with 404 NOT_FOUND in the envelope and a request id', async () => {
    const res = await t.http.get(`${t.core}/no-such-thing`).set(apiHeaders(t));
    expectError(res, 404, 'NOT_FOUND');
    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('echoes a sane x-request-id and replaces an unsafe one', async () => {
    const echoed = await t.http.get('/health').set('x-request-id', 'abc-123');
    expect(echoed.headers['x-request-id']).toBe('abc-123');
    const replaced = await t.http.get('/health').set('x-request-id', 'bad id\twith spaces');
    expect(replaced.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('answers health and readiness without a key', async () => {
    expect(expectOk(await t.http.get('/health'))).toEqual({ status: 'ok' });
    expect(expectOk(await t.http.get('/health/ready'))).toEqual({ status: 'ready' });
  });

  it('refuses malformed JSON with 400 BAD_REQUEST', async () => {
    const res = await t.http
      .post(`${t.core}/probe/echo`)
      .set(apiHeaders(t))
      .set('content-type', 'application/json')
      .send('{"name": "x",');
    expectError(res, 400, 'BAD_REQUEST');
  });

  it('refuses a body that is not JSON with 400 BAD_REQUEST', async () => {
    const res = await t.http
      .post(`${t.core}/probe/echo`)
      .set(apiHeaders(t))
      .set('content-type', 'text/plain')
      .send('name=x&count=2');
    expectError(res, 400, 'BAD_REQUEST');
  });

  it('refuses a body over 1 MiB with 413 PAYLOAD_TOO_LARGE', async () => {
    const res = await t.http
      .post(`${t.core}/probe/echo`)
      .set(apiHeaders(t))
      .set('content-type', 'application/json')
      .send(JSON.stringify({ name: 'x'.repeat(2 * 1024 * 1024), count: 1 }));
    expectError(res, 413, 'PAYLOAD_TOO_LARGE');
  });

  it('gives one VALIDATION_FAILED detail per bad field and ignores unknown fields', async () => {
    const bad = await t.http
      .post(`${t.core}/probe/echo`)
      .set(apiHeaders(t))
      .send({ name: 5, count: 99 });
    expectError(bad, 400, 'VALIDATION_FAILED');
    expect(bad.body.error.details.map((d: { field: string }) => d.field).sort()).toEqual([
      'count',
      'name',
    ]);

    const good = await t.http
      .post(`${t.core}/probe/echo`)
      .set(apiHeaders(t))
      .send({ name: 'x', count: 2, created_by: 'someone', uuid: '' });
    expect(expectOk(good, 201)).toEqual({ name: 'x', count: 2 });
  });

  it('turns an unexpected error into 500 INTERNAL with the request id and no internals', async () => {
    const res = await t.http
      .get(`${t.core}/probe/boom`)
      .set(apiHeaders(t))
      .set('x-request-id', 'req-500');
    expectError(res, 500, 'INTERNAL');
    expect(res.body.message).toContain('req-500');
    expect(JSON.stringify(res.body)).not.toMatch(/secret_table|SELECT|at .*\.ts/);
  });

  it('answers a CORS preflight allowing the headers browsers send', async () => {
    const res = await t.http
      .options(`${t.core}/probe/key`)
      .set('Origin', 'https://shop.example')
      .set('Access-Control-Request-Method', 'POST')
      .set(
        'Access-Control-Request-Headers',
        'x-api-key,authorization,content-type,idempotency-key',
      );
    expect(res.status).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe('*');
    const allowed = res.headers['access-control-allow-headers'].toLowerCase();
    for (const header of ['x-api-key', 'authorization', 'content-type', 'idempotency-key']) {
      expect(allowed).toContain(header);
    }
  });

  it('sends helmet security headers', async () => {
    const res = await t.http.get('/health');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(res.headers['x-powered-by']).toBeUndefined();
  });

  it('serves Swagger UI and the OpenAPI document without a key', async () => {
    const ui = await t.http.get('/docs/');
    expect(ui.status).toBe(200);
    expect(ui.text).toContain('swagger-ui');
    const doc = await t.http.get('/docs/openapi.json');
    expect(doc.status).toBe(200);
    expect(doc.body.openapi).toMatch(/^3\./);
    expect(doc.body.paths['/health'].get.operationId).toBe('checkLiveness');
    expect(doc.body.components.securitySchemes).toHaveProperty('api_key');
    expect(doc.body.components.securitySchemes).toHaveProperty('bearer');
  });
});
