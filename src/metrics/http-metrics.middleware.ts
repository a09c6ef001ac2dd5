import { NextFunction, Request, Response } from 'express';
import { httpRequestDuration, UNMATCHED_ROUTE } from './metrics';

type RoutedRequest = Request & { route?: { path?: unknown } };

/** Nest mounts middleware as catch-all routes (`/{*path}`); a request left with one matched no handler. */
const CATCH_ALL = /^\/?\{?\*[A-Za-z0-9_]*\}?$/;

/**
 * The route template a request matched (`/orders/:uuid`), never its URL: ids
 * in labels would make a new series per record. Requests that matched no
 * route (including those refused before routing, such as malformed JSON)
 * share one label.
 */
export function routeLabel(req: Request): string {
  const route = (req as RoutedRequest).route;
  if (!route || typeof route.path !== 'string' || CATCH_ALL.test(route.path)) {
    return UNMATCHED_ROUTE;
  }
  return `${req.baseUrl ?? ''}${route.path}`;
}

/**
 * Times every request into http_request_duration_seconds once its answer is
 * done. Mounted first, before body parsing, so that requests refused there
 * are counted too.
 */
export function recordHttpMetrics(req: Request, res: Response, next: NextFunction): void {
  const stop = httpRequestDuration.startTimer();
  let recorded = false;
  const record = () => {
    if (recorded) return;
    recorded = true;
    stop({ method: req.method, route: routeLabel(req), status: String(res.statusCode) });
  };
  res.once('finish', record);
  res.once('close', record);
  next();
}
