import { ArgumentsHost, Catch, ExceptionFilter, Logger } from '@nestjs/common';
import { Request, Response } from 'express';
import { toErrorResponse } from './error-response';
import { requestIdOf } from './request-id';

@Catch()
export class ErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger('ErrorFilter');

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<Request>();
    const response = http.getResponse<Response>();
    const answer = toErrorResponse(exception, requestIdOf(request), this.logger);
    if (response.headersSent) {
      // A stream already started (SSE, file download): all we can do is end it.
      response.end();
      return;
    }
    response.status(answer.status).set(answer.headers).json(answer.body);
  }
}
