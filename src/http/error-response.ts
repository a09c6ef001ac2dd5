import { HttpException, HttpStatus, Logger } from '@nestjs/common';
import { ApiError, ErrorCode, ErrorDetail } from './api-error';
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
  415: 'BAD_REQUEST',
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
    case 'encoding.unsupported':
    case 'charset.unsupported':
    case 'request.size.invalid':
    case 'request.aborted':
    case 'stream.encoding.set':
      return plain(400, 'BAD_REQUEST', 'The body could not be read.');
    default:
      return undefined;
  }
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
 * One mapping from anything thrown to the error envelope of API.md D4, used by
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
  logger.error({ err: error, requestId }, 'Unhandled error');
  return plain(500, 'INTERNAL', `Something went wrong on our side (request id ${requestId}).`);
}
