import { Logger } from '@nestjs/common';
import { NestExpressApplication } from '@nestjs/platform-express';
import { json, NextFunction, Request, Response } from 'express';
import helmet from 'helmet';
import { Options } from 'pino-http';
import { AppConfig } from '../config/config';
import { accessLog } from './access-log';
import { toErrorResponse } from './error-response';
import { refuseDeepJson, refuseUnstorableText } from './input-rules';
import { loggerParams } from './logging';
import { requestIdMiddleware, requestIdOf } from './request-id';

export const JSON_BODY_LIMIT = '1mb';

/** Routes that take a raw body (the signed upload PUT of the local file driver). */
const RAW_BODY_PATHS = ['/files/upload/'];
/** A menu's import reads its own body (JSON or CSV, with a limit of its own). */
const IMPORT_PATH = /\/menus\/[^/]+\/import$/;

function hasBody(req: Request): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/** A body that is not JSON is 400 BAD_REQUEST, not silently ignored. */
function requireJsonBody(req: Request, res: Response, next: NextFunction): void {
  if (!hasBody(req) || RAW_BODY_PATHS.some((prefix) => req.path.startsWith(prefix))) return next();
  if (IMPORT_PATH.test(req.path)) return next();
  if (req.is('application/json')) return next();
  next(Object.assign(new Error('unsupported content type'), { type: 'content.type', status: 400 }));
}

/** Body encodings the JSON parser decodes; anything else is 415. */
const BODY_ENCODINGS = new Set(['identity', 'gzip', 'x-gzip', 'deflate', 'br']);

/** A body in an encoding the service does not decode is 415, before anything reads it. */
function requireKnownEncoding(req: Request, res: Response, next: NextFunction): void {
  const encoding = req.headers['content-encoding'];
  if (encoding === undefined || !hasBody(req)) return next();
  if (BODY_ENCODINGS.has(encoding.trim().toLowerCase())) return next();
  next(Object.assign(new Error('unsupported content encoding'), { type: 'encoding.unsupported' }));
}

/**
 * The one rule for strings: U+0000 or a lone surrogate in a query or body
 * value (or key), at any depth, is 400 naming the field, before any route
 * runs (PostgreSQL cannot store NUL; no client means to send either). Path
 * parameters are checked by the validation pipe, which knows their names.
 */
function refuseUnstorableInput(req: Request, res: Response, next: NextFunction): void {
  try {
    refuseUnstorableText(req.query, '');
    if (req.body !== undefined) refuseUnstorableText(req.body, '');
    next();
  } catch (error) {
    next(error);
  }
}

/**
 * Express-level plumbing that runs before Nest's router: request id, security
 * headers, CORS for the configured origins, the JSON body with its 1 MiB limit, and the envelope for
 * errors raised there (malformed JSON, wrong type, too large).
 */
export function installHttpPipeline(app: NestExpressApplication, config: AppConfig): void {
  const logger = new Logger('Http');
  app.disable('x-powered-by');
  // Per-IP rate limits read the client address; only listed proxies may set it.
  app.set('trust proxy', config.trustProxy);
  app.use(requestIdMiddleware);
  // The access log, before anything can refuse the request, so every answer
  // (a 400 from the body parser included) is logged with its status and time.
  app.use(accessLog(loggerParams(config).pinoHttp as Options));
  // Uploaded images are read from other origins (storefront); plain-http
  // deployments behind a proxy must not have their docs assets upgraded.
  app.use(
    helmet({
      crossOriginResourcePolicy: { policy: 'cross-origin' },
      contentSecurityPolicy: { directives: { upgradeInsecureRequests: null } },
    }),
  );
  // R3: cors.
  app.enableCors({
    origin: config.corsOrigins === '*' ? '*' : config.corsOrigins,
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
    allowedHeaders: [
      'x-api-key',
      'Authorization',
      'Content-Type',
      'Idempotency-Key',
      'x-request-id',
      'x-order-token',
    ],
    exposedHeaders: ['x-request-id', 'Idempotent-Replayed', 'Retry-After'],
    maxAge: 600,
  });
  app.use(requireJsonBody);
  app.use(requireKnownEncoding);
  // Decodes gzip/deflate/br (the limit applies to the decoded body) and
  // refuses nesting deeper than the limit from the raw text, before parsing.
  // The raw (decoded) bytes stay on req.rawBody: a provider's webhook signature is checked over them.
  const parseJson = json({
    limit: JSON_BODY_LIMIT,
    type: 'application/json',
    inflate: true,
    verify: (req: Request & { rawBody?: Buffer }, _res, body) => {
      refuseDeepJson(body);
      req.rawBody = body;
    },
  });
  app.use((req: Request, res: Response, next: NextFunction) =>
    IMPORT_PATH.test(req.path) ? next() : parseJson(req, res, next),
  );
  app.use(refuseUnstorableInput);
  app.use((error: unknown, req: Request, res: Response, next: NextFunction) => {
    if (res.headersSent) return next(error);
    const answer = toErrorResponse(error, requestIdOf(req), logger);
    res.status(answer.status).set(answer.headers).json(answer.body);
  });
}
