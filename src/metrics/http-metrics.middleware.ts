import { Injectable, NestMiddleware } from '@nestjs/common';
import { NextFunction, Request, Response } from 'express';
import { httpRequestDuration, UNMATCHED_ROUTE } from './metrics';

type RoutedRequest = Request & { route?: { path?: unknown } };

/**
 * The route template a request matched (`/orders/:uuid`), never its URL: ids
 * in labels would make a new series per record. Requests that matched no
 * route share one label.
 */
export function routeLabel(req: Request, ownRoute: unknown): string {
  const route = (req as RoutedRequest).route;
  if (!route || route === ownRoute || typeof route.path !== 'string') return UNMATCHED_ROUTE;
  return `${req.baseUrl ?? ''}${route.path}`;
}

/** Times every request into http_request_duration_seconds once its answer is done. */
@Injectable()
export class HttpMetricsMiddleware implements NestMiddleware {
  use(req: Request, res: Response, next: NextFunction): void {
    const stop = httpRequestDuration.startTimer();
    // This middleware is mounted as a catch-all route itself; a request that
    // still carries that route when it ends matched no handler.
    const ownRoute = (req as RoutedRequest).route;
    let recorded = false;
    const record = () => {
      if (recorded) return;
      recorded = true;
      stop({
        method: req.method,
        route: routeLabel(req, ownRoute),
        status: String(res.statusCode),
      });
    };
    res.once('finish', record);
    res.once('close', record);
    next();
  }
}
