import { HttpException, HttpStatus } from '@nestjs/common';

export type ErrorCode =
  | 'VALIDATION_FAILED'
  | 'BAD_REQUEST'
  | 'API_KEY_INVALID'
  | 'UNAUTHENTICATED'
  | 'INVALID_CREDENTIALS'
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  | 'CONFLICT'
  | 'UNPROCESSABLE'
  | 'IMPORT_FAILED'
  | 'PAYLOAD_TOO_LARGE'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'SERVICE_UNAVAILABLE'
  | 'RATE_LIMITED'
  | 'INTERNAL';

/** What a client is told to wait during a database outage. */
export const SERVICE_RETRY_AFTER_SECONDS = 2;

export interface ErrorDetail {
  field?: string;
  message: string;
  [extra: string]: unknown;
}

// R4: errors.
/**
 * A refusal with an error code. Services throw these; the exception
 * filter turns them into the error envelope.
 */
export class ApiError extends HttpException {
  constructor(
    status: number,
    readonly code: ErrorCode,
    message: string,
    readonly details: ErrorDetail[] = [],
    /** Extra response headers, such as Retry-After. */
    readonly headers: Record<string, string> = {},
  ) {
    super(message, status);
  }

  static validation(details: ErrorDetail[], message = 'The request is not valid.'): ApiError {
    return new ApiError(HttpStatus.BAD_REQUEST, 'VALIDATION_FAILED', message, details);
  }

  static badRequest(message: string): ApiError {
    return new ApiError(HttpStatus.BAD_REQUEST, 'BAD_REQUEST', message);
  }

  static unauthenticated(message = 'A valid Bearer token is required.'): ApiError {
    return new ApiError(HttpStatus.UNAUTHORIZED, 'UNAUTHENTICATED', message);
  }

  static forbidden(message = 'You may not act on this record.'): ApiError {
    return new ApiError(HttpStatus.FORBIDDEN, 'FORBIDDEN', message);
  }

  static notFound(message = 'The record does not exist.'): ApiError {
    return new ApiError(HttpStatus.NOT_FOUND, 'NOT_FOUND', message);
  }

  static conflict(message: string, details: ErrorDetail[] = []): ApiError {
    return new ApiError(HttpStatus.CONFLICT, 'CONFLICT', message, details);
  }

  static unprocessable(message: string, details: ErrorDetail[] = []): ApiError {
    return new ApiError(HttpStatus.UNPROCESSABLE_ENTITY, 'UNPROCESSABLE', message, details);
  }

  static serviceUnavailable(
    message = 'The database is not reachable; try again shortly.',
    retryAfterSeconds = SERVICE_RETRY_AFTER_SECONDS,
  ): ApiError {
    return new ApiError(HttpStatus.SERVICE_UNAVAILABLE, 'SERVICE_UNAVAILABLE', message, [], {
      'Retry-After': String(retryAfterSeconds),
    });
  }

  static rateLimited(retryAfterSeconds: number): ApiError {
    return new ApiError(
      HttpStatus.TOO_MANY_REQUESTS,
      'RATE_LIMITED',
      'Too many requests; try again later.',
      [],
      { 'Retry-After': String(Math.max(1, Math.ceil(retryAfterSeconds))) },
    );
  }
}
