import { resolve } from 'node:path';
import { generatedSecret } from './generated-secret';
import {
  bool,
  ConfigError,
  Env,
  int,
  memorySize,
  oneOf,
  parseDuration,
  read,
  url,
} from './env-readers';
import { corsOrigins, metricsToken, trustProxy } from './http-config';
import { GuestMessagesConfig, guestMessagesConfig } from './messages-config';
import { OutboxLanes, outboxLanes } from './outbox-config';
import { origins, PaystackConfig, paystackConfig } from './payments-config';
import { S3Config, s3Config, StorageDriverName } from './storage-config';
import { retrySchedule } from './webhooks-config';

export { ConfigError, parseDuration } from './env-readers';
export type { GuestMessagesConfig } from './messages-config';
export type { OutboxLanes, OutboxLaneSettings } from './outbox-config';
export type { PaystackConfig } from './payments-config';
export type { S3Config, StorageDriverName } from './storage-config';
export { DEFAULT_WEBHOOK_RETRY_SCHEDULE } from './webhooks-config';

export type NodeEnv = 'development' | 'production' | 'test';

/** The whole runtime configuration, validated once at boot. */
export interface AppConfig {
  port: number;
  nodeEnv: NodeEnv;
  namespace: string;
  apiKeys: string[];
  /** True when no API_KEYS were set and the development key is in use. */
  usingDevelopmentApiKey: boolean;
  /**
   * Signs access tokens; order tokens, emailed-code hashes, upload signatures
   * and (without WEBHOOK_SECRET_KEY) the webhook secret key derive from it.
   */
  jwtSecret: string;
  /** True when JWT_SECRET was unset and the secret kept in DATA_DIR is in use. */
  jwtSecretGenerated: boolean;
  jwtExpiresInSeconds: number;
  databaseUrl: string | undefined;
  databasePoolSize: number;
  dataDir: string;
  /** shared_buffers of the embedded database (PostgreSQL's memory unit syntax, e.g. "32MB"). */
  embeddedSharedBuffers: string;
  corsOrigins: string[] | '*';
  /** Express `trust proxy`: which hops' X-Forwarded-For is believed for the client IP. */
  trustProxy: boolean | number | string[];
  publicBaseUrl: string;
  logLevel: string;
  shutdownTimeoutMs: number;
  smtpUrl: string | undefined;
  mailFrom: string;
  rateLimitAuthPerMinute: number;
  rateLimitOrderPerMinute: number;
  /** A guest's payment verify and new checkout, per order and per IP, a minute each. */
  rateLimitPaymentPerOrderPerMinute: number;
  rateLimitPaymentPerIpPerMinute: number;
  /** Order quotes per IP a minute: an allowance of their own, apart from placement's. */
  rateLimitQuotePerMinute: number;
  /** Unknown discount codes per IP and menu a minute, over quotes and placements. */
  rateLimitUnknownCodePerMinute: number;
  /** Storefront QR images (SVG, PNG) per IP a minute. */
  rateLimitQrPerMinute: number;
  /** Printable table sheets (PDF) per IP a minute. */
  rateLimitQrSheetPerMinute: number;
  storageDriver: StorageDriverName;
  maxUploadBytes: number;
  s3: S3Config | undefined;
  storefrontCacheTtlMs: number;
  /** Bytes of finished list pages each process keeps (0: none); a page is reused only at its parent's current version. */
  listPageCacheBytes: number;
  /** Seconds to wait before each retry of a failed webhook delivery; its length is the number of retries. */
  webhookRetryScheduleSeconds: number[];
  /** Lets webhook URLs reach loopback, private and link-local addresses (tests, private networks). */
  webhookAllowPrivateUrls: boolean;
  /** Input keying material for the key that encrypts webhook signing secrets at rest. */
  webhookSecretKey: string;
  /** Address of the guest storefront web app; QR codes point at `{frontUrl}/app/<business>/menu/<menu>`. */
  frontUrl: string;
  /** Card payments collected online through Paystack; undefined without PAYSTACK_SECRET_KEY. */
  paystack: PaystackConfig | undefined;
  /** Guest messages by WhatsApp and SMS: each provider undefined without its settings. */
  guestMessages: GuestMessagesConfig;
  /** Origins a checkout's callback_url may point at; '*' is any http(s) origin. */
  paymentCallbackOrigins: string[] | '*';
  /** How often each process looks for pending payments whose check with the provider is due. */
  paymentCheckIntervalMs: number;
  /** Bearer token GET /metrics requires; unset: open outside production, hidden (404) in production. */
  metricsToken: string | undefined;
  /** Swagger UI at /docs and the OpenAPI document at /docs/openapi.json; false: both 404. */
  docsEnabled: boolean;
  /** The kitchen display at /kitchen; false: 404. */
  kitchenDisplayEnabled: boolean;
  /** How often each outbox lane looks for due rows when no notification woke it. */
  outboxPollIntervalMs: number;
  /** The outbox's delivery lanes, one per kind of side effect (see OutboxLaneSettings). */
  outboxLanes: OutboxLanes;
}

export const DEVELOPMENT_API_KEY = 'dev-api-key-change-me';

/**
 * Reads and validates the environment. Throws a ConfigError naming the first
 * variable that is wrong; main.ts turns it into a message and exit code 1.
 */
export function loadConfig(env: Env = process.env): AppConfig {
  const nodeEnv = oneOf(
    env,
    'NODE_ENV',
    ['development', 'production', 'test'] as const,
    'development',
  );
  const production = nodeEnv === 'production';
  const port = int(env, 'PORT', 3000, 0, 65535);

  const namespace = read(env, 'API_NAMESPACE') ?? 'svc';
  if (!/^[a-z][a-z0-9]{0,31}$/.test(namespace)) {
    throw new ConfigError(
      'API_NAMESPACE',
      'must be 1-32 lower-case letters or digits, starting with a letter',
    );
  }

  const apiKeys = (read(env, 'API_KEYS') ?? '')
    .split(',')
    .map((key) => key.trim())
    .filter(Boolean);
  if (apiKeys.some((key) => key.length < 16)) {
    throw new ConfigError('API_KEYS', 'must hold keys of at least 16 characters each');
  }
  if (production && apiKeys.length === 0) {
    throw new ConfigError('API_KEYS', 'is required when NODE_ENV=production');
  }

  const dataDir = resolve(read(env, 'DATA_DIR') ?? './data');
  let jwtSecret = read(env, 'JWT_SECRET');
  if (jwtSecret !== undefined && Buffer.byteLength(jwtSecret) < 32 && production) {
    throw new ConfigError('JWT_SECRET', 'must be at least 32 bytes when NODE_ENV=production');
  }
  const jwtSecretGenerated = jwtSecret === undefined;
  if (jwtSecret === undefined) {
    if (production) throw new ConfigError('JWT_SECRET', 'is required when NODE_ENV=production');
    try {
      jwtSecret = generatedSecret(dataDir);
    } catch (error) {
      throw new ConfigError('JWT_SECRET', `is unset and ${(error as Error).message}`);
    }
  }

  const jwtExpiresIn = read(env, 'JWT_EXPIRES_IN');
  const databaseUrl = url(env, 'DATABASE_URL', ['postgres:', 'postgresql:']);

  const cors = corsOrigins(env, production);

  const publicBaseUrl = (
    url(env, 'PUBLIC_BASE_URL', ['http:', 'https:']) ?? `http://localhost:${port}`
  ).replace(/\/$/, '');

  const trust = trustProxy(env);

  // Falls back to JWT_SECRET; a dedicated key lets JWT_SECRET be rotated without
  // making the stored webhook secrets unreadable.
  const webhookSecretKey = read(env, 'WEBHOOK_SECRET_KEY') ?? jwtSecret;
  if (production && Buffer.byteLength(webhookSecretKey) < 32) {
    throw new ConfigError(
      'WEBHOOK_SECRET_KEY',
      'must be at least 32 bytes when NODE_ENV=production',
    );
  }

  const storageDriver = oneOf(env, 'STORAGE_DRIVER', ['local', 's3'] as const, 'local');

  // Printed QR codes carry it, so production must say where the storefront is.
  const frontUrl = url(env, 'FRONT_URL', ['http:', 'https:']);
  if (frontUrl === undefined && production) {
    throw new ConfigError('FRONT_URL', 'is required when NODE_ENV=production');
  }

  return {
    port,
    nodeEnv,
    namespace,
    apiKeys: apiKeys.length ? apiKeys : [DEVELOPMENT_API_KEY],
    usingDevelopmentApiKey: apiKeys.length === 0,
    jwtSecret,
    jwtSecretGenerated,
    jwtExpiresInSeconds: jwtExpiresIn ? parseDuration('JWT_EXPIRES_IN', jwtExpiresIn) : 86400,
    databaseUrl,
    databasePoolSize: int(env, 'DATABASE_POOL_SIZE', 10, 1, 200),
    dataDir,
    embeddedSharedBuffers: memorySize(env, 'EMBEDDED_SHARED_BUFFERS', '32MB'),
    corsOrigins: cors,
    trustProxy: trust,
    publicBaseUrl,
    logLevel: oneOf(
      env,
      'LOG_LEVEL',
      ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const,
      'info',
    ),
    shutdownTimeoutMs: int(env, 'SHUTDOWN_TIMEOUT_MS', 10000, 0, 600000),
    smtpUrl: url(env, 'SMTP_URL', ['smtp:', 'smtps:']),
    mailFrom: read(env, 'MAIL_FROM') ?? 'Menu Service <no-reply@localhost>',
    rateLimitAuthPerMinute: int(env, 'RATE_LIMIT_AUTH_PER_MINUTE', 10, 1, 100000),
    rateLimitOrderPerMinute: int(env, 'RATE_LIMIT_ORDER_PER_MINUTE', 30, 1, 100000),
    rateLimitPaymentPerOrderPerMinute: int(
      env,
      'RATE_LIMIT_PAYMENT_PER_ORDER_PER_MINUTE',
      10,
      1,
      100000,
    ),
    rateLimitPaymentPerIpPerMinute: int(env, 'RATE_LIMIT_PAYMENT_PER_IP_PER_MINUTE', 30, 1, 100000),
    rateLimitQuotePerMinute: int(env, 'RATE_LIMIT_QUOTE_PER_MINUTE', 60, 1, 100000),
    rateLimitUnknownCodePerMinute: int(env, 'RATE_LIMIT_UNKNOWN_CODE_PER_MINUTE', 10, 1, 100000),
    rateLimitQrPerMinute: int(env, 'RATE_LIMIT_QR_PER_MINUTE', 120, 1, 100000),
    rateLimitQrSheetPerMinute: int(env, 'RATE_LIMIT_QR_SHEET_PER_MINUTE', 30, 1, 100000),
    storageDriver,
    maxUploadBytes: int(env, 'MAX_UPLOAD_BYTES', 5 * 1024 * 1024, 1, 1024 * 1024 * 1024),
    s3: storageDriver === 's3' ? s3Config(env) : undefined,
    storefrontCacheTtlMs: int(env, 'STOREFRONT_CACHE_TTL_MS', 2000, 0, 60000),
    listPageCacheBytes: int(env, 'LIST_PAGE_CACHE_BYTES', 8 * 1024 * 1024, 0, 1024 * 1024 * 1024),
    webhookRetryScheduleSeconds: retrySchedule(env, 'WEBHOOK_RETRY_SCHEDULE'),
    webhookAllowPrivateUrls: bool(env, 'WEBHOOK_ALLOW_PRIVATE_URLS', false),
    webhookSecretKey: webhookSecretKey,
    frontUrl: (frontUrl ?? 'http://localhost:3000').replace(/\/+$/, ''),
    paystack: paystackConfig(env),
    guestMessages: guestMessagesConfig(env),
    paymentCallbackOrigins: origins(env, 'PAYMENT_CALLBACK_ORIGINS') ?? (production ? [] : '*'),
    paymentCheckIntervalMs: int(env, 'PAYMENT_CHECK_INTERVAL_MS', 15000, 100, 600000),
    metricsToken: metricsToken(env),
    docsEnabled: bool(env, 'DOCS_ENABLED', true),
    kitchenDisplayEnabled: bool(env, 'KITCHEN_DISPLAY_ENABLED', true),
    outboxPollIntervalMs: int(env, 'OUTBOX_POLL_INTERVAL_MS', 1000, 100, 600000),
    outboxLanes: outboxLanes(env),
  };
}
