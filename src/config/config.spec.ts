import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  ConfigError,
  DEVELOPMENT_API_KEY,
  loadConfig as loadAnyConfig,
  parseDuration,
} from './config';
import { GENERATED_SECRET_FILE } from './generated-secret';

// Without JWT_SECRET a secret is generated into DATA_DIR: keep it out of the working tree.
const dataDir = mkdtempSync(join(tmpdir(), 'config-spec-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
const loadConfig = (env: Record<string, string>) => loadAnyConfig({ DATA_DIR: dataDir, ...env });

const strongSecret = 'x'.repeat(32);

describe('loadConfig', () => {
  it('has working defaults outside production', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      nodeEnv: 'development',
      namespace: 'svc',
      apiKeys: [DEVELOPMENT_API_KEY],
      usingDevelopmentApiKey: true,
      jwtExpiresInSeconds: 86400,
      databaseUrl: undefined,
      corsOrigins: '*',
      storageDriver: 'local',
      maxUploadBytes: 5 * 1024 * 1024,
      frontUrl: 'http://localhost:3000',
    });
    expect(config.jwtSecret.length).toBeGreaterThanOrEqual(32);
    expect(config).toMatchObject({
      webhookRetryScheduleSeconds: [30, 120, 600, 3600, 21600, 86400],
      webhookAllowPrivateUrls: false,
      webhookSecretKey: config.jwtSecret,
    });
  });

  it("limits a guest's payment calls to 10 a minute per order and 30 per IP unless told", () => {
    expect(loadConfig({})).toMatchObject({
      rateLimitPaymentPerOrderPerMinute: 10,
      rateLimitPaymentPerIpPerMinute: 30,
    });
    expect(
      loadConfig({
        RATE_LIMIT_PAYMENT_PER_ORDER_PER_MINUTE: '2',
        RATE_LIMIT_PAYMENT_PER_IP_PER_MINUTE: '7',
      }),
    ).toMatchObject({ rateLimitPaymentPerOrderPerMinute: 2, rateLimitPaymentPerIpPerMinute: 7 });
  });

  it('keeps 8 MiB of list pages unless told, 0 for none, and refuses anything else', () => {
    expect(loadConfig({}).listPageCacheBytes).toBe(8 * 1024 * 1024);
    expect(loadConfig({ LIST_PAGE_CACHE_BYTES: '0' }).listPageCacheBytes).toBe(0);
    expect(loadConfig({ LIST_PAGE_CACHE_BYTES: '1048576' }).listPageCacheBytes).toBe(1048576);
    expect(() => loadConfig({ LIST_PAGE_CACHE_BYTES: '8MB' })).toThrow(
      'Invalid configuration: LIST_PAGE_CACHE_BYTES must be a whole number, got "8MB"',
    );
    expect(() => loadConfig({ LIST_PAGE_CACHE_BYTES: '2000000000' })).toThrow(ConfigError);
  });

  it('serves the docs unless DOCS_ENABLED=false, and refuses another value', () => {
    expect(loadConfig({}).docsEnabled).toBe(true);
    expect(loadConfig({ DOCS_ENABLED: 'false' }).docsEnabled).toBe(false);
    expect(() => loadConfig({ DOCS_ENABLED: 'no' })).toThrow(
      'Invalid configuration: DOCS_ENABLED must be true or false, got "no"',
    );
  });

  it('gives the embedded database a 32MB buffer pool unless told, from 1MB to 1GB', () => {
    expect(loadConfig({}).embeddedSharedBuffers).toBe('32MB');
    expect(loadConfig({ EMBEDDED_SHARED_BUFFERS: '16384kB' }).embeddedSharedBuffers).toBe(
      '16384kB',
    );
    for (const bad of ['32', '32mb', '512kB', '2GB', '-1MB']) {
      expect(() => loadConfig({ EMBEDDED_SHARED_BUFFERS: bad })).toThrow(
        `Invalid configuration: EMBEDDED_SHARED_BUFFERS must be a size from 1MB to 1GB such as 32MB, got "${bad}"`,
      );
    }
  });

  it('gives each outbox lane its concurrency and cap per receiver, refusing nonsense', () => {
    expect(loadConfig({})).toMatchObject({
      outboxPollIntervalMs: 1000,
      outboxLanes: {
        mail: { concurrency: 8, perReceiver: 8 },
        webhook: { concurrency: 16, perReceiver: 2 },
        message: { concurrency: 8, perReceiver: 4 },
      },
    });
    const tuned = loadConfig({
      OUTBOX_POLL_INTERVAL_MS: '60000',
      OUTBOX_MAIL_CONCURRENCY: '20',
      OUTBOX_WEBHOOK_CONCURRENCY: '4',
      OUTBOX_WEBHOOK_PER_ENDPOINT: '1',
      OUTBOX_MESSAGE_CONCURRENCY: '2',
      OUTBOX_MESSAGE_PER_PROVIDER: '10',
    });
    expect(tuned.outboxPollIntervalMs).toBe(60000);
    expect(tuned.outboxLanes).toEqual({
      mail: { concurrency: 20, perReceiver: 20 },
      webhook: { concurrency: 4, perReceiver: 1 },
      // A receiver never holds more than the whole lane.
      message: { concurrency: 2, perReceiver: 2 },
    });
    for (const [name, bad] of [
      ['OUTBOX_MAIL_CONCURRENCY', '0'],
      ['OUTBOX_WEBHOOK_CONCURRENCY', '257'],
      ['OUTBOX_WEBHOOK_PER_ENDPOINT', '0'],
      ['OUTBOX_MESSAGE_PER_PROVIDER', 'many'],
      ['OUTBOX_POLL_INTERVAL_MS', '10'],
    ]) {
      expect(() => loadConfig({ [name]: bad })).toThrow(`Invalid configuration: ${name} must be`);
    }
  });

  it('reads the webhook settings', () => {
    expect(
      loadConfig({
        WEBHOOK_RETRY_SCHEDULE: '1, 1,5',
        WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
        WEBHOOK_SECRET_KEY: 'k'.repeat(40),
      }),
    ).toMatchObject({
      webhookRetryScheduleSeconds: [1, 1, 5],
      webhookAllowPrivateUrls: true,
      webhookSecretKey: 'k'.repeat(40),
    });
  });

  it.each([
    [{ PORT: 'eighty' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ NODE_ENV: 'staging' }, 'NODE_ENV'],
    [{ API_NAMESPACE: 'Bad-NS' }, 'API_NAMESPACE'],
    [{ API_KEYS: 'short' }, 'API_KEYS'],
    [{ JWT_EXPIRES_IN: 'forever' }, 'JWT_EXPIRES_IN'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL'],
    [{ CORS_ORIGINS: 'shop.example' }, 'CORS_ORIGINS'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
    [{ TRUST_PROXY: 'every one' }, 'TRUST_PROXY'],
    [{ STORAGE_DRIVER: 's3' }, 'S3_ENDPOINT'],
    [{ WEBHOOK_RETRY_SCHEDULE: '30,soon' }, 'WEBHOOK_RETRY_SCHEDULE'],
    [{ WEBHOOK_RETRY_SCHEDULE: '0' }, 'WEBHOOK_RETRY_SCHEDULE'],
    [{ WEBHOOK_ALLOW_PRIVATE_URLS: 'yes' }, 'WEBHOOK_ALLOW_PRIVATE_URLS'],
    [{ RATE_LIMIT_PAYMENT_PER_ORDER_PER_MINUTE: '0' }, 'RATE_LIMIT_PAYMENT_PER_ORDER_PER_MINUTE'],
    [{ RATE_LIMIT_PAYMENT_PER_IP_PER_MINUTE: 'many' }, 'RATE_LIMIT_PAYMENT_PER_IP_PER_MINUTE'],
    [{ NODE_ENV: 'production', JWT_SECRET: strongSecret }, 'API_KEYS'],
    [{ NODE_ENV: 'production', API_KEYS: 'k'.repeat(20) }, 'JWT_SECRET'],
    [{ NODE_ENV: 'production', API_KEYS: 'k'.repeat(20), JWT_SECRET: 'short' }, 'JWT_SECRET'],
    [{ NODE_ENV: 'production', API_KEYS: 'k'.repeat(20), JWT_SECRET: strongSecret }, 'FRONT_URL'],
    [{ FRONT_URL: 'shop.example' }, 'FRONT_URL'],
  ])('refuses %p naming %s', (env, variable) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(new RegExp(`^Invalid configuration: ${variable} `));
  });

  it('starts in production with keys and a strong secret, and closes CORS by default', () => {
    const config = loadConfig({
      NODE_ENV: 'production',
      API_KEYS: 'a'.repeat(20) + ',' + 'b'.repeat(20),
      JWT_SECRET: strongSecret,
      FRONT_URL: 'https://menu.example/',
    });
    expect(config.frontUrl).toBe('https://menu.example');
    expect(config.apiKeys).toHaveLength(2);
    expect(config.usingDevelopmentApiKey).toBe(false);
    expect(config.corsOrigins).toEqual([]);
  });

  it('reads the S3 settings', () => {
    const config = loadConfig({
      STORAGE_DRIVER: 's3',
      S3_ENDPOINT: 'http://127.0.0.1:9000',
      S3_BUCKET: 'uploads',
      S3_ACCESS_KEY: 'minio',
      S3_SECRET_KEY: 'minio-secret',
    });
    expect(config.s3).toMatchObject({
      endPoint: '127.0.0.1',
      port: 9000,
      useSSL: false,
      bucket: 'uploads',
      publicUrl: 'http://127.0.0.1:9000/uploads',
    });
  });
});

describe('the secret generated when JWT_SECRET is unset', () => {
  it('is 256 random bits kept in DATA_DIR, readable by its user only, and reused', () => {
    const dir = mkdtempSync(join(tmpdir(), 'config-secret-'));
    try {
      const first = loadAnyConfig({ DATA_DIR: dir });
      const file = join(dir, GENERATED_SECRET_FILE);
      expect(Buffer.from(first.jwtSecret, 'base64url')).toHaveLength(32);
      expect(readFileSync(file, 'utf8').trim()).toBe(first.jwtSecret);
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(first.jwtSecretGenerated).toBe(true);
      expect(first.webhookSecretKey).toBe(first.jwtSecret);
      expect(loadAnyConfig({ DATA_DIR: dir }).jwtSecret).toBe(first.jwtSecret);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('differs between data directories', () => {
    const a = mkdtempSync(join(tmpdir(), 'config-secret-'));
    const b = mkdtempSync(join(tmpdir(), 'config-secret-'));
    try {
      expect(loadAnyConfig({ DATA_DIR: a }).jwtSecret).not.toBe(
        loadAnyConfig({ DATA_DIR: b }).jwtSecret,
      );
    } finally {
      rmSync(a, { recursive: true, force: true });
      rmSync(b, { recursive: true, force: true });
    }
  });

  it('is neither read nor written when JWT_SECRET is set', () => {
    const dir = mkdtempSync(join(tmpdir(), 'config-secret-'));
    try {
      const config = loadAnyConfig({ DATA_DIR: dir, JWT_SECRET: 'y'.repeat(40) });
      expect(config).toMatchObject({ jwtSecret: 'y'.repeat(40), jwtSecretGenerated: false });
      expect(() => statSync(join(dir, GENERATED_SECRET_FILE))).toThrow(/ENOENT/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses a kept secret that is too short, naming JWT_SECRET', () => {
    const dir = mkdtempSync(join(tmpdir(), 'config-secret-'));
    try {
      writeFileSync(join(dir, GENERATED_SECRET_FILE), 'short\n', { mode: 0o600 });
      expect(() => loadAnyConfig({ DATA_DIR: dir })).toThrow(/^Invalid configuration: JWT_SECRET /);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('TRUST_PROXY', () => {
  it.each([
    [undefined, false],
    ['loopback,uniquelocal', ['loopback', 'uniquelocal']],
    ['false', false],
    ['2', 2],
    ['10.0.0.0/8, 127.0.0.1', ['10.0.0.0/8', '127.0.0.1']],
  ])('%p becomes %p', (raw, expected) => {
    expect(loadConfig(raw === undefined ? {} : { TRUST_PROXY: raw }).trustProxy).toEqual(expected);
  });
});

describe('parseDuration', () => {
  it.each([
    ['3600', 3600],
    ['15m', 900],
    ['24h', 86400],
    ['7d', 604800],
  ])('%s is %d seconds', (raw, seconds) => expect(parseDuration('X', raw)).toBe(seconds));

  it('refuses nonsense and extremes', () => {
    expect(() => parseDuration('X', '1s')).toThrow(ConfigError);
    expect(() => parseDuration('X', '1y')).toThrow(ConfigError);
  });
});
