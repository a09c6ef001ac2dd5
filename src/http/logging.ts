import { randomUUID } from 'node:crypto';
import { IncomingMessage } from 'node:http';
import { Params } from 'nestjs-pino';
import { stdSerializers } from 'pino';
import { AppConfig } from '../config/config';
import { maskPhonesIn } from '../common/phone-number';

/**
 * The names that mark a secret, wherever they appear: a body or log field, a
 * header, a query parameter. Passwords and anything named token or secret
 * (the access token, the order token in `order_token` and `x-order-token`,
 * the emailed codes in `token_to_*`, invitation tokens), API keys in
 * `x-api-key` and `api_key`, Authorization, cookies, signatures of uploads and
 * webhooks, and the parameters of a failed SQL statement (any stored value,
 * hashes included, can be one of them).
 */
const SECRET_NAME =
  /password|token|secret|api[_-]?key|authorization|cookie|signature|invitation|parameters/i;

/** `name=value` pairs of a query string (or a URL inside a message). */
const QUERY_PAIR = /([?&;])([^=&#\s"']+)=([^&#\s"']*)/g;
/** Credentials that name themselves in free text: a Bearer token, a JWT. */
const BEARER = /\b(Bearer\s+)[A-Za-z0-9._~+/=-]+/gi;
const JWT = /\beyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+/g;

const REDACTED = '[redacted]';

// R65: log redaction.
export function isSecretName(name: string): boolean {
  return SECRET_NAME.test(name);
}

/**
 * What every secret the patterns above find contains: a `name=value` pair
 * has an `=`, a Bearer token the word, a JWT its `eyJ` header. Text without
 * any (most header values, most URLs) is returned as it is after one test.
 */
const MAY_HOLD_SECRET = /=|bearer|eyJ/i;

/** Free text (a URL, a message, a stack) with the secrets it carries censored, phone numbers masked. */
// R106: phone numbers are masked in every log line but their last four digits.
export function redactText(input: string): string {
  const text = maskPhonesIn(input);
  if (!MAY_HOLD_SECRET.test(text)) return text;
  return text
    .replace(QUERY_PAIR, (pair, sep: string, name: string) =>
      isSecretName(decodeName(name)) ? `${sep}${name}=${REDACTED}` : pair,
    )
    .replace(BEARER, `$1${REDACTED}`)
    .replace(JWT, REDACTED);
}

function decodeName(name: string): string {
  try {
    return decodeURIComponent(name);
  } catch {
    return name;
  }
}

function isPlainObject(value: object): boolean {
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

/**
 * Censors secret-named fields at any depth of a logged object, and the
 * secrets inside its text. Only plain objects and arrays are copied: the
 * request and response objects are left whole for their serializers (a copy
 * would lose the prototype's getters, and the access log would say
 * `"statusCode": null`), which censor them in turn.
 */
export function redactSecrets(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return redactText(value);
  if (depth > 8 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((item) => redactSecrets(item, depth + 1));
  if (!isPlainObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    out[key] = isSecretName(key) ? REDACTED : redactSecrets(inner, depth + 1);
  }
  return out;
}

export function redactUrl(url: string | undefined): string | undefined {
  return url === undefined ? undefined : redactText(url);
}

/** Request headers with every secret-named one censored. */
export function redactHeaders(headers: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(headers)) {
    out[name] = isSecretName(name) ? REDACTED : redactSecrets(value);
  }
  return out;
}

/**
 * An error as pino writes it (type, message, stack, its own fields), with
 * its secrets censored. pino-http hands over its own serialized form, whose
 * prototype keeps it from being copied as a plain object: copy it here.
 */
function redactError(error: unknown): unknown {
  if (error === null || typeof error !== 'object') return redactSecrets(error);
  const source = (error instanceof Error ? stdSerializers.err(error) : error) as Record<
    string,
    unknown
  >;
  const plain: Record<string, unknown> = {};
  for (const key of new Set(['type', 'message', 'stack', ...Object.keys(source)])) {
    if (source[key] !== undefined) plain[key] = source[key];
  }
  return redactSecrets(plain);
}

/**
 * JSON logs with the request id, and secrets censored in every line: the
 * access log's URL and headers, every message, every logged object and error.
 * A line logged while a request runs carries its `request_id`; the request
 * itself (method, URL, headers) is written once, in its access log line. A
 * logger bound to the whole request would serialize and censor its headers
 * for every request, at any log level, whether a line is written or not.
 */
export function loggerParams(config: AppConfig): Params {
  return {
    pinoHttp: {
      level: config.logLevel,
      genReqId: (req: IncomingMessage) =>
        (req as IncomingMessage & { id?: string }).id ?? randomUUID(),
      customAttributeKeys: { reqId: 'request_id' },
      quietReqLogger: true,
      quietResLogger: true,
      customSuccessObject: (req, _res, value: Record<string, unknown>) => ({ ...value, req }),
      customErrorObject: (req, _res, _error, value: Record<string, unknown>) => ({ ...value, req }),
      serializers: {
        req: (req: {
          id: string;
          method: string;
          url: string;
          headers: Record<string, unknown>;
        }) => ({
          id: req.id,
          method: req.method,
          url: redactUrl(req.url),
          headers: redactHeaders(req.headers ?? {}),
        }),
        err: redactError,
        msg: (message: unknown) =>
          typeof message === 'string' ? redactText(message) : redactSecrets(message),
      },
      formatters: {
        log: (object: Record<string, unknown>) => redactSecrets(object) as Record<string, unknown>,
      },
      autoLogging: { ignore: (req) => (req.url ?? '').startsWith('/health') },
    },
  };
}
