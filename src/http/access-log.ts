import { randomUUID } from 'node:crypto';
import { IncomingMessage, ServerResponse } from 'node:http';
import { DestinationStream, Logger } from 'pino';
import { Options, pinoHttp } from 'pino-http';

// pino-http's declarations give IncomingMessage `id` and `log`, ServerResponse `log` and `err`.
type Request = IncomingMessage;
type Response = ServerResponse;
type LogObject = Record<string, unknown>;

/**
 * The access log: one line when each answer is finished (or the connection
 * closed first), with the request, the answer and its time, at info level;
 * `request errored` with the error for a 5xx or a failed response. It sets
 * `req.log` to a logger bound to the request's id, which every line logged
 * while the request runs goes through.
 *
 * The logger is pino-http's, made from `options` (the serializers wrapped as
 * pino-http wraps them, so the lines are pino-http's own); the middleware is
 * this one. pino-http's makes two child loggers per request. The second is
 * bound to the request, which pino serializes as the child is made (its URL
 * and every header censored), at any log level, and nothing uses it when
 * both quiet options are set. This one makes only the request id's, and
 * reads the options the service's logger sets: `genReqId`,
 * `customAttributeKeys.reqId`, `customSuccessObject`, `customErrorObject`
 * and `autoLogging.ignore`.
 */
export function accessLog(
  options: Options,
  stream?: DestinationStream,
): ((req: IncomingMessage, res: ServerResponse, next?: () => void) => void) & { logger: Logger } {
  const root = pinoHttp(options, stream).logger;
  const idKey = options.customAttributeKeys?.reqId ?? 'reqId';
  const genReqId = options.genReqId ?? (() => randomUUID());
  const successObject = options.customSuccessObject ?? ((_req, _res, value: LogObject) => value);
  const errorObject =
    options.customErrorObject ?? ((_req, _res, _error, value: LogObject) => value);
  const autoLogging = options.autoLogging;
  const ignore = typeof autoLogging === 'object' ? autoLogging.ignore : undefined;

  function finished(req: Request, res: Response, log: Logger, startedAt: number, err?: Error) {
    if (!log.isLevelEnabled('info')) return;
    const responseTime = Date.now() - startedAt;
    if (err || res.err || res.statusCode >= 500) {
      const error = err ?? res.err ?? new Error(`failed with status code ${res.statusCode}`);
      const value = { res, err: error, responseTime };
      log.info(errorObject(req, res, error, value) as LogObject, 'request errored');
      return;
    }
    const message =
      !req.readableAborted && res.writableEnded ? 'request completed' : 'request aborted';
    log.info(successObject(req, res, { res, responseTime }) as LogObject, message);
  }

  const middleware = (req: Request, res: Response, next?: () => void): void => {
    const startedAt = Date.now();
    req.id ??= genReqId(req, res);
    const log = root.child({ [idKey]: req.id });
    req.log ??= log;
    res.log ??= log;
    const complete = (err?: Error) => {
      res.removeListener('close', complete);
      res.removeListener('finish', complete);
      res.removeListener('error', complete);
      finished(req, res, log, startedAt, err);
    };
    if (autoLogging !== false) {
      if (!ignore?.(req)) {
        res.on('close', complete);
        res.on('finish', complete);
      }
      res.on('error', complete);
    }
    next?.();
  };
  return Object.assign(middleware, { logger: root });
}
