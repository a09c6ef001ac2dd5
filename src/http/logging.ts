import { randomUUID } from 'node:crypto';
import { IncomingMessage } from 'node:http';
import { Params } from 'nestjs-pino';
import { AppConfig } from '../config/config';

const SECRET_KEY = /password|token|secret|api_key|authorization/i;
const SECRET_QUERY = /([?&](?:access_token|api_key|token|signature)=)[^&]*/gi;

function isPlainObject(value: object): boolean {
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

/**
 * Censors `password*`, `token*` and friends at any depth of a logged object.
 * Only plain objects and arrays are copied: the request and response objects
 * are left whole for their serializers (a copy would lose the prototype's
 * getters, and the access log would say `"statusCode": null`).
 */
export function redactSecrets(value: unknown, depth = 0): unknown {
  if (depth > 8 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((item) => redactSecrets(item, depth + 1));
  if (!isPlainObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    out[key] = SECRET_KEY.test(key) ? '[redacted]' : redactSecrets(inner, depth + 1);
  }
  return out;
}

export function redactUrl(url: string | undefined): string | undefined {
  return url?.replace(SECRET_QUERY, '$1[redacted]');
}

/** JSON logs with the request id and secrets redacted. */
export function loggerParams(config: AppConfig): Params {
  return {
    pinoHttp: {
      level: config.logLevel,
      genReqId: (req: IncomingMessage) =>
        (req as IncomingMessage & { id?: string }).id ?? randomUUID(),
      customAttributeKeys: { reqId: 'request_id' },
      redact: {
        paths: ['req.headers.authorization', 'req.headers["x-api-key"]', 'req.headers.cookie'],
        censor: '[redacted]',
      },
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
          headers: req.headers,
        }),
      },
      formatters: {
        log: (object: Record<string, unknown>) => redactSecrets(object) as Record<string, unknown>,
      },
      autoLogging: { ignore: (req) => (req.url ?? '').startsWith('/health') },
    },
  };
}
