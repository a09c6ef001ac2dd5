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

export { ConfigError, parseDuration } from './env-readers';

export type NodeEnv = 'development' | 'production' | 'test';
export type StorageDriverName = 'local' | 's3';

export interface S3Config {
  endPoint: string;
  port: number | undefined;
  useSSL: boolean;
  bucket: string;
  accessKey: string;
  secretKey: string;
  region: string;
  publicUrl: string;
}

/**
 * Guest messages (WhatsApp Cloud API, Termii, Twilio). A provider is
 * configured when its credentials are set; with none, messages go to the log.
 */
export interface GuestMessagesConfig {
  whatsapp:
    | { accessToken: string; phoneNumberId: string; baseUrl: string; templatePrefix: string }
    | undefined;
  /** Signs WhatsApp's status webhooks (X-Hub-Signature-256); unset, they are refused. */
  whatsappAppSecret: string | undefined;
  /** Answers WhatsApp's verification handshake; unset, it is refused. */
  whatsappVerifyToken: string | undefined;
  termii: { apiKey: string; senderId: string; baseUrl: string } | undefined;
  twilio: { accountSid: string; authToken: string; from: string; baseUrl: string } | undefined;
  /** Which SMS provider sends when both are configured. */
  smsProvider: 'termii' | 'twilio';
  /** The guest's order page link with `{business_meta_key}`, `{order_uuid}`, `{order_token}`; unset: FRONT_URL's. */
  guestOrderUrl: string | undefined;
  timeoutMs: number;
}

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
  outboxLanes: Record<'mail' | 'webhook' | 'message', OutboxLaneSettings>;
}

/** How many deliveries of one outbox lane run at once in a process, in all and per receiver. */
export interface OutboxLaneSettings {
  concurrency: number;
  /** At most this many of them for one receiver (a webhook endpoint, a message provider). */
  perReceiver: number;
}

export interface PaystackConfig {
  secretKey: string;
  baseUrl: string;
  /** How long a call to Paystack may take before it counts as failed. */
  timeoutMs: number;
}

export const DEVELOPMENT_API_KEY = 'dev-api-key-change-me';

/** Default waits between webhook attempts: 30 s, 2 min, 10 min, 1 h, 6 h, 24 h. */
export const DEFAULT_WEBHOOK_RETRY_SCHEDULE = [30, 120, 600, 3600, 21600, 86400];

/** Comma-separated whole seconds, each 1 s … 7 days, at most 20 of them. */
function retrySchedule(env: Env, name: string): number[] {
  const raw = read(env, name);
  if (raw === undefined) return [...DEFAULT_WEBHOOK_RETRY_SCHEDULE];
  const parts = raw.split(',').map((part) => part.trim());
  if (parts.length > 20 || parts.some((part) => !/^\d{1,6}$/.test(part))) {
    throw new ConfigError(
      name,
      `must be up to 20 whole numbers of seconds separated by commas, got "${raw}"`,
    );
  }
  const seconds = parts.map(Number);
  if (seconds.some((value) => value < 1 || value > 7 * 86400)) {
    throw new ConfigError(name, 'must hold waits between 1 second and 7 days');
  }
  return seconds;
}

function s3Config(env: Env): S3Config {
  const endpoint = url(env, 'S3_ENDPOINT', ['http:', 'https:']);
  if (!endpoint) throw new ConfigError('S3_ENDPOINT', 'is required when STORAGE_DRIVER=s3');
  const parsed = new URL(endpoint);
  const required = (name: string) => {
    const value = read(env, name);
    if (!value) throw new ConfigError(name, 'is required when STORAGE_DRIVER=s3');
    return value;
  };
  const bucket = required('S3_BUCKET');
  return {
    endPoint: parsed.hostname,
    port: parsed.port ? Number(parsed.port) : undefined,
    useSSL: parsed.protocol === 'https:',
    bucket,
    accessKey: required('S3_ACCESS_KEY'),
    secretKey: required('S3_SECRET_KEY'),
    region: read(env, 'S3_REGION') ?? 'us-east-1',
    publicUrl: (
      url(env, 'S3_PUBLIC_URL', ['http:', 'https:']) ?? `${endpoint.replace(/\/$/, '')}/${bucket}`
    ).replace(/\/$/, ''),
  };
}

/** Comma-separated http(s) origins such as https://shop.example. */
function origins(env: Env, name: string): string[] | undefined {
  const raw = read(env, name);
  if (raw === undefined) return undefined;
  const list = raw
    .split(',')
    .map((origin) => origin.trim().replace(/\/$/, ''))
    .filter(Boolean);
  for (const origin of list) {
    if (!/^https?:\/\/[^/\s]+$/.test(origin)) {
      throw new ConfigError(
        name,
        `holds "${origin}", which is not an origin like https://shop.example`,
      );
    }
  }
  return list;
}

function guestMessagesConfig(env: Env): GuestMessagesConfig {
  const base = (value: string) => value.replace(/\/+$/, '');
  const whatsappToken = read(env, 'WHATSAPP_ACCESS_TOKEN');
  const whatsappNumber = read(env, 'WHATSAPP_PHONE_NUMBER_ID');
  const termiiKey = read(env, 'TERMII_API_KEY');
  const twilioSid = read(env, 'TWILIO_ACCOUNT_SID');
  const twilioToken = read(env, 'TWILIO_AUTH_TOKEN');
  const twilioFrom = read(env, 'TWILIO_FROM');
  return {
    whatsapp:
      whatsappToken && whatsappNumber
        ? {
            accessToken: whatsappToken,
            phoneNumberId: whatsappNumber,
            baseUrl: base(
              url(env, 'WHATSAPP_BASE_URL', ['http:', 'https:']) ??
                'https://graph.facebook.com/v21.0',
            ),
            templatePrefix: read(env, 'WHATSAPP_TEMPLATE_PREFIX') ?? 'order_',
          }
        : undefined,
    whatsappAppSecret: read(env, 'WHATSAPP_APP_SECRET'),
    whatsappVerifyToken: read(env, 'WHATSAPP_VERIFY_TOKEN'),
    termii: termiiKey
      ? {
          apiKey: termiiKey,
          senderId: read(env, 'TERMII_SENDER_ID') ?? 'Orders',
          baseUrl: base(
            url(env, 'TERMII_BASE_URL', ['http:', 'https:']) ?? 'https://api.ng.termii.com',
          ),
        }
      : undefined,
    twilio:
      twilioSid && twilioToken && twilioFrom
        ? {
            accountSid: twilioSid,
            authToken: twilioToken,
            from: twilioFrom,
            baseUrl: base(
              url(env, 'TWILIO_BASE_URL', ['http:', 'https:']) ?? 'https://api.twilio.com',
            ),
          }
        : undefined,
    smsProvider: oneOf(env, 'SMS_PROVIDER', ['termii', 'twilio'] as const, 'termii'),
    guestOrderUrl: read(env, 'GUEST_ORDER_URL'),
    timeoutMs: int(env, 'MESSAGE_PROVIDER_TIMEOUT_MS', 10000, 1, 120000),
  };
}

function paystackConfig(env: Env): PaystackConfig | undefined {
  const secretKey = read(env, 'PAYSTACK_SECRET_KEY');
  if (secretKey === undefined) return undefined;
  return {
    secretKey,
    baseUrl: (
      url(env, 'PAYSTACK_BASE_URL', ['http:', 'https:']) ?? 'https://api.paystack.co'
    ).replace(/\/$/, ''),
    timeoutMs: int(env, 'PAYSTACK_TIMEOUT_MS', 10000, 1, 120000),
  };
}

/**
 * Each outbox lane's concurrency and its cap per receiver (never above the
 * lane's own). Every mail goes to the one SMTP relay, so the mail lane's cap
 * is its concurrency.
 */
function outboxLanes(env: Env): AppConfig['outboxLanes'] {
  const lane = (concurrency: number, perReceiver: number): OutboxLaneSettings => ({
    concurrency,
    perReceiver: Math.min(perReceiver, concurrency),
  });
  const mail = int(env, 'OUTBOX_MAIL_CONCURRENCY', 8, 1, 256);
  return {
    mail: lane(mail, mail),
    webhook: lane(
      int(env, 'OUTBOX_WEBHOOK_CONCURRENCY', 16, 1, 256),
      int(env, 'OUTBOX_WEBHOOK_PER_ENDPOINT', 2, 1, 64),
    ),
    message: lane(
      int(env, 'OUTBOX_MESSAGE_CONCURRENCY', 8, 1, 256),
      int(env, 'OUTBOX_MESSAGE_PER_PROVIDER', 4, 1, 64),
    ),
  };
}

function metricsToken(env: Env): string | undefined {
  const token = read(env, 'METRICS_TOKEN');
  if (token !== undefined && token.length < 16) {
    throw new ConfigError('METRICS_TOKEN', 'must be at least 16 characters');
  }
  return token;
}

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

  const corsRaw = read(env, 'CORS_ORIGINS');
  let corsOrigins: string[] | '*';
  if (corsRaw === undefined) {
    corsOrigins = production ? [] : '*';
  } else if (corsRaw === '*') {
    corsOrigins = '*';
  } else {
    corsOrigins = corsRaw
      .split(',')
      .map((origin) => origin.trim())
      .filter(Boolean);
    for (const origin of corsOrigins) {
      if (!/^https?:\/\/[^/\s]+$/.test(origin)) {
        throw new ConfigError(
          'CORS_ORIGINS',
          `holds "${origin}", which is not an origin like https://shop.example`,
        );
      }
    }
  }

  const publicBaseUrl = (
    url(env, 'PUBLIC_BASE_URL', ['http:', 'https:']) ?? `http://localhost:${port}`
  ).replace(/\/$/, '');

  // Default: no proxy is trusted, so a client that sends X-Forwarded-For itself
  // cannot choose the address its per-IP limits are counted under.
  const trustRaw = read(env, 'TRUST_PROXY') ?? 'false';
  let trustProxy: boolean | number | string[];
  if (trustRaw === 'true' || trustRaw === 'false') {
    trustProxy = trustRaw === 'true';
  } else if (/^\d+$/.test(trustRaw)) {
    trustProxy = Number(trustRaw);
  } else {
    trustProxy = trustRaw
      .split(',')
      .map((part) => part.trim())
      .filter(Boolean);
    if (trustProxy.some((part) => !/^[0-9a-zA-Z.:/]+$/.test(part))) {
      throw new ConfigError(
        'TRUST_PROXY',
        'must be true, false, a hop count, or addresses/subnets separated by commas',
      );
    }
  }

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
    corsOrigins,
    trustProxy,
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
