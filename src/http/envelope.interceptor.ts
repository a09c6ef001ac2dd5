import {
  CallHandler,
  ExecutionContext,
  Injectable,
  NestInterceptor,
  SetMetadata,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { Response } from 'express';
import { map, Observable } from 'rxjs';
import { ApiResult, successBody } from './envelope';

const MESSAGE_KEY = 'svc:message';
const RAW_KEY = 'svc:raw';

/** The `message` of a successful answer of this route. */
export const Message = (message: string) => SetMetadata(MESSAGE_KEY, message);

/** The route writes its own answer (a stream, a file): no envelope. */
export const RawResponse = () => SetMetadata(RAW_KEY, true);

@Injectable()
export class EnvelopeInterceptor implements NestInterceptor {
  constructor(private readonly reflector: Reflector) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (
      context.getType() !== 'http' ||
      this.reflector.get<boolean>(RAW_KEY, context.getHandler())
    ) {
      return next.handle();
    }
    const fallback = this.reflector.get<string>(MESSAGE_KEY, context.getHandler()) ?? 'OK';
    const response = context.switchToHttp().getResponse<Response>();
    return next.handle().pipe(
      map((result: unknown) => {
        if (!(result instanceof ApiResult)) return successBody(result, fallback);
        if (result.status) response.status(result.status);
        if (result.headers) response.set(result.headers);
        return successBody(result.data, result.message ?? fallback, result.meta);
      }),
    );
  }
}
