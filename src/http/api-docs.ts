import { applyDecorators, Type } from '@nestjs/common';
import { ApiExtraModels, ApiResponse, getSchemaPath } from '@nestjs/swagger';
import { ErrorEnvelopeDto, PageMetaDto, SuccessEnvelopeDto } from './envelope.dto';

const ERROR_TEXT: Record<number, string> = {
  400: 'VALIDATION_FAILED (one detail per field) or BAD_REQUEST',
  401: 'API_KEY_INVALID, UNAUTHENTICATED or INVALID_CREDENTIALS',
  403: 'FORBIDDEN: not the caller’s record',
  404: 'NOT_FOUND',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  422: 'UNPROCESSABLE: a business rule refused it; details say which',
  415: 'UNSUPPORTED_MEDIA_TYPE: a body in a Content-Encoding other than gzip, deflate or br',
  429: 'RATE_LIMITED (see Retry-After)',
  503: 'SERVICE_UNAVAILABLE: the database is unreachable; try again after Retry-After seconds',
};

/** Documents the error envelope for these statuses. */
export function ApiErrors(...statuses: number[]): MethodDecorator & ClassDecorator {
  return applyDecorators(
    ApiExtraModels(ErrorEnvelopeDto),
    ...statuses.map((status) =>
      ApiResponse({
        status,
        description: ERROR_TEXT[status] ?? 'Error',
        schema: { $ref: getSchemaPath(ErrorEnvelopeDto) },
      }),
    ),
  );
}

export interface EnvelopeOptions {
  status?: number;
  description?: string;
  /** `data` is an array of the model. */
  isArray?: boolean;
  /** `meta` with paging beside `data` (lists). */
  paged?: boolean;
  /** Extra `meta` properties beside the paging (e.g. `unread`). */
  extraMeta?: Record<string, object>;
}

/** Documents a successful answer: the envelope with `data` of `model` (null when no model). */
export function ApiEnvelope(
  model: Type<unknown> | null,
  options: EnvelopeOptions = {},
): MethodDecorator {
  const item = model
    ? { $ref: getSchemaPath(model) }
    : { type: 'object', nullable: true, example: null };
  const data = options.isArray ? { type: 'array', items: item } : item;
  const properties: Record<string, object> = { data };
  if (options.paged) {
    properties.meta = options.extraMeta
      ? {
          allOf: [
            { $ref: getSchemaPath(PageMetaDto) },
            { type: 'object', properties: options.extraMeta },
          ],
        }
      : { $ref: getSchemaPath(PageMetaDto) };
  }
  return applyDecorators(
    ApiExtraModels(SuccessEnvelopeDto, PageMetaDto, ...(model ? [model] : [])),
    ApiResponse({
      status: options.status ?? 200,
      description: options.description ?? 'OK',
      schema: {
        allOf: [
          { $ref: getSchemaPath(SuccessEnvelopeDto) },
          { type: 'object', required: ['data'], properties },
        ],
      },
    }),
  );
}
