import { SetMetadata, Type } from '@nestjs/common';
import { PATH_METADATA } from '@nestjs/common/constants';
import { ExpressAdapter } from '@nestjs/platform-express';
import { Response } from 'express';
import { ApiResult, successBody } from './envelope';

const MESSAGE_KEY = 'svc:message';
const RAW_KEY = 'svc:raw';
/** Set on a handler that answers inside the envelope, so no class is wrapped twice. */
const ENVELOPED = Symbol('enveloped');

/** The `message` of a successful answer of this route. */
export const Message = (message: string) => SetMetadata(MESSAGE_KEY, message);

/** The route writes its own answer (a stream, a file): no envelope. */
export const RawResponse = () => SetMetadata(RAW_KEY, true);

/** A route's answer in its envelope, with the status and headers it asks for. */
class EnvelopedAnswer {
  constructor(
    readonly body: ReturnType<typeof successBody>,
    readonly status?: number,
    readonly headers?: Record<string, string>,
  ) {}
}

function enveloped(result: unknown, fallback: string): EnvelopedAnswer {
  if (!(result instanceof ApiResult)) return new EnvelopedAnswer(successBody(result, fallback));
  return new EnvelopedAnswer(
    successBody(result.data, result.message ?? fallback, result.meta),
    result.status,
    result.headers,
  );
}

type Handler = ((...args: unknown[]) => unknown) & { [ENVELOPED]?: true };

/**
 * Makes every route of these controllers answer inside the envelope
 * (`{status: true, message, data, meta?}`): what a handler returns is the
 * `data`, with the route's `@Message` (else `OK`); an `ApiResult` also sets
 * the message, `meta`, the status and headers. Routes marked
 * `@RawResponse()` write their own answer and are left alone.
 *
 * Each route's handler is wrapped in place, before the routes are
 * registered, rather than by a global interceptor: an interceptor puts
 * every request of every route, the raw ones included, through a chain of
 * observables and bound async resources, which cost the list page (a raw
 * route) more than a quarter of its answers a second. The wrapper carries the handler's
 * metadata (path, guards, documentation), so routing and the OpenAPI
 * document see the same route. A class is wrapped once per process, however
 * many apps are built from it.
 */
export function envelopeRoutes(controllers: Iterable<Type<unknown>>): void {
  for (const controller of controllers) {
    const prototype = controller.prototype as Record<string, unknown>;
    for (const name of Object.getOwnPropertyNames(prototype)) {
      const descriptor = Object.getOwnPropertyDescriptor(prototype, name);
      const handler = descriptor?.value as Handler | undefined;
      if (name === 'constructor' || typeof handler !== 'function' || handler[ENVELOPED]) continue;
      if (Reflect.getMetadata(PATH_METADATA, handler) === undefined) continue;
      if (Reflect.getMetadata(RAW_KEY, handler)) continue;
      const fallback = (Reflect.getMetadata(MESSAGE_KEY, handler) as string | undefined) ?? 'OK';
      const wrapped: Handler = async function (this: unknown, ...args: unknown[]) {
        return enveloped(await handler.apply(this, args), fallback);
      };
      for (const key of Reflect.getOwnMetadataKeys(handler)) {
        Reflect.defineMetadata(key, Reflect.getOwnMetadata(key, handler), wrapped);
      }
      Object.defineProperty(wrapped, 'name', { value: handler.name });
      wrapped[ENVELOPED] = true;
      Object.defineProperty(prototype, name, { ...descriptor, value: wrapped });
    }
  }
}

/** Express as Nest drives it, sending an enveloped answer with the status and headers it asks for. */
export class EnvelopeExpressAdapter extends ExpressAdapter {
  override reply(response: Response, body: unknown, statusCode?: number): unknown {
    if (!(body instanceof EnvelopedAnswer)) return super.reply(response, body, statusCode);
    if (body.headers) response.set(body.headers);
    return super.reply(response, body.body, body.status ?? statusCode);
  }
}
