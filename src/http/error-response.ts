import { HttpException, HttpStatus, Logger } from '@nestjs/common';
import { isDatabaseUnavailable } from '../database/connection-errors';
import { ApiError, ErrorCode, ErrorDetail, SERVICE_RETRY_AFTER_SECONDS } from './api-error';
import { errorBody, ErrorBody } from './envelope';

export interface ErrorResponse {
  status: number;
  body: ErrorBody;
  headers: Record<string, string>;
}

const CODE_BY_STATUS: Record<number, ErrorCode> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHENTICATED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'NOT_FOUND',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  431: 'BAD_REQUEST',
  422: 'UNPROCESSABLE',
  429: 'RATE_LIMITED',
};

/** body-parser and raw-body errors carry `type` and `status`. */
interface ParserError {
  type?: string;
  status?: number;
  statusCode?: number;
  expose?: boolean;
}

function fromParser(error: ParserError): ErrorResponse | undefined {
  switch (error.type) {
    case 'content.type':
      return plain(400, 'BAD_REQUEST', 'Send the body as application/json.');
    case 'entity.parse.failed':
      return plain(400, 'BAD_REQUEST', 'The body is not valid JSON.');
    case 'entity.too.large':
      return plain(413, 'PAYLOAD_TOO_LARGE', 'The body is too large.');
    case 'entity.too.deep':
      return plain(400, 'BAD_REQUEST', 'The body is nested too deeply.');
    case 'encoding.unsupported':
      return plain(
        415,
        'UNSUPPORTED_MEDIA_TYPE',
        'Send the body uncompressed or in gzip, deflate or br.',
      );
    case 'charset.unsupported':
    case 'request.size.invalid':
    case 'request.aborted':
    case 'stream.encoding.set':
      return plain(400, 'BAD_REQUEST', 'The body could not be read.');
    default:
      break;
  }
  // Any other client error raised by Express or a parser (a body that does not
  // decode, a path that is not valid percent-encoding) keeps its 4xx.
  const status = error.status ?? error.statusCode;
  if (error.expose !== false && typeof status === 'number' && status >= 400 && status < 500) {
    const code = CODE_BY_STATUS[status] ?? 'BAD_REQUEST';
    const message = status === 400 ? 'The request could not be read.' : 'The request was refused.';
    return plain(status === 405 ? 404 : status, code, message);
  }
  return undefined;
}

function plain(
  status: number,
  code: ErrorCode,
  message: string,
  details: ErrorDetail[] = [],
): ErrorResponse {
  return { status, body: errorBody(code, message, details), headers: {} };
}

/**
 * One mapping from anything thrown to the error envelope (a code and details), used by
 * the Nest exception filter and by the Express error handler for body parsing.
 * Unknown errors become a logged 500 that names the request id and nothing else.
 */
export function toErrorResponse(error: unknown, requestId: string, logger: Logger): ErrorResponse {
  if (error instanceof ApiError) {
    return {
      status: error.getStatus(),
      body: errorBody(error.code, error.message, error.details),
      headers: error.headers,
    };
  }
  if (error instanceof HttpException) {
    const status = error.getStatus();
    const code = CODE_BY_STATUS[status];
    if (code) {
      let message = error.message;
      if (status === HttpStatus.NOT_FOUND && /^Cannot [A-Z]+ /.test(message)) {
        message = `No route matches ${message.slice('Cannot '.length)}.`;
      }
      if (status === 405) return plain(404, 'NOT_FOUND', 'No route matches this method and path.');
      return plain(status, code, message);
    }
  }
  if (error && typeof error === 'object') {
    const parsed = fromParser(error as ParserError);
    if (parsed) return parsed;
  }
  if (isDatabaseUnavailable(error)) {
    logger.warn({ err: error, requestId }, 'Database unavailable');
    return {
      status: 503,
      body: errorBody('SERVICE_UNAVAILABLE', 'The database is not reachable; try again shortly.'),
      headers: { 'Retry-After': String(SERVICE_RETRY_AFTER_SECONDS) },
    };
  }

  logger.error({ err: error, requestId }, 'Unhandled error');
  return plain(500, 'INTERNAL', `Something went wrong on our side (request id ${requestId}).`);
}
