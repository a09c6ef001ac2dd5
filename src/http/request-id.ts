import { randomUUID } from 'node:crypto';
import { NextFunction, Request, Response } from 'express';

const ACCEPTED_ID = /^[A-Za-z0-9._:-]{1,128}$/;

type WithId = Request & { id?: string };

// R5: request id.
/** Echo a sane x-request-id, or make one; the first middleware of all. */
export function requestIdMiddleware(req: Request, res: Response, next: NextFunction): void {
  const sent = req.header('x-request-id');
  const id = sent && ACCEPTED_ID.test(sent) ? sent : randomUUID();
  (req as WithId).id = id;
  res.setHeader('x-request-id', id);
  next();
}

export function requestIdOf(req: Request): string {
  return (req as WithId).id ?? 'unknown';
}
