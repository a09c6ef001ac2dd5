import { expectError, expectOk } from './support/expect';
import { startTestApp, TestApp } from './support/test-app';

describe('documentation routes', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ API_KEYS: '' });
  });
  afterAll(() => t?.close());

  it('GET / names Swagger UI and the OpenAPI document, without a key', async () => {
    expect(expectOk(await t.http.get('/'))).toEqual({
      name: 'Menu and Ordering Service',
      docs: '/docs',
      openapi: '/docs/openapi.json',
      health: '/health',
    });
  });

  it('Swagger UI loads the document by URL instead of carrying it inline', async () => {
    const init = await t.http.get('/docs/swagger-ui-init.js');
    expect(init.status).toBe(200);
    expect(init.text).toContain('"url": "/docs/openapi.json"');
    expect(init.text).not.toContain('registerUser');
    const doc = await t.http.get('/docs/openapi.json');
    expect(doc.status).toBe(200);
    expect(doc.body.paths['/'].get.operationId).toBe('describeService');
  });

  it('names the development key in the served document while it is in use', async () => {
    const doc = (await t.http.get('/docs/openapi.json')).body;
    expect(doc.info.description).toContain('dev-api-key-change-me');
    expect(doc.components.securitySchemes.api_key.description).toContain('dev-api-key-change-me');
  });

  it('does not name a development key when API_KEYS is set', async () => {
    const keyed = await startTestApp();
    try {
      const doc = (await keyed.http.get('/docs/openapi.json')).body;
      expect(JSON.stringify(doc)).not.toContain('dev-api-key-change-me');
    } finally {
      await keyed.close();
    }
  });
});

describe('DOCS_ENABLED=false', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ DOCS_ENABLED: 'false' });
  });
  afterAll(() => t?.close());

  it('answers 404 in the envelope for Swagger UI and the document, and GET / names neither', async () => {
    for (const path of ['/docs', '/docs/', '/docs/openapi.json', '/docs/swagger-ui-init.js']) {
      expectError(await t.http.get(path), 404, 'NOT_FOUND');
    }
    expect(expectOk(await t.http.get('/'))).toMatchObject({ docs: null, openapi: null });
  });
});
