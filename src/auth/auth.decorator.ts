import {
  applyDecorators,
  createParamDecorator,
  ExecutionContext,
  SetMetadata,
} from '@nestjs/common';
import { ApiSecurity } from '@nestjs/swagger';
import { ApiErrors } from '../http/api-docs';

export const AUTH_KEY = 'svc:auth';

export interface AuthRequirement {
  /** x-api-key required: one of the configured API keys. */
  apiKey: boolean;
  /** Bearer token: required, optional (read when sent, refused when bad) or not read. */
  bearer: 'required' | 'optional' | 'none';
  /** Also accept ?api_key= and ?access_token= (EventSource cannot send headers). */
  queryCredentials: boolean;
}

export interface AuthOptions {
  apiKey?: boolean;
  bearer?: AuthRequirement['bearer'];
  queryCredentials?: boolean;
}

/**
 * What a route needs, declared once: the global guard enforces it and the
 * OpenAPI security is written from it. A route without it is refused.
 * Default: API key and Bearer token.
 */
export function Auth(options: AuthOptions = {}): MethodDecorator & ClassDecorator {
  const requirement: AuthRequirement = {
    apiKey: options.apiKey ?? true,
    bearer: options.bearer ?? 'required',
    queryCredentials: options.queryCredentials ?? false,
  };
  const decorators: Array<ClassDecorator | MethodDecorator> = [SetMetadata(AUTH_KEY, requirement)];
  if (requirement.bearer === 'required') {
    decorators.push(ApiSecurity({ api_key: [], bearer: [] }), ApiErrors(401));
  } else if (requirement.bearer === 'optional') {
    decorators.push(
      ApiSecurity({ api_key: [], bearer: [] }),
      ApiSecurity('api_key'),
      ApiErrors(401),
    );
  } else if (requirement.apiKey) {
    decorators.push(ApiSecurity('api_key'), ApiErrors(401));
  }
  return applyDecorators(...decorators);
}

/** API key only (guest routes: register, login, storefront, order placement). */
export const ApiKeyOnly = () => Auth({ bearer: 'none' });

/** No credentials at all: health, docs, public file reads, the signed upload PUT. */
export const Public = () => Auth({ apiKey: false, bearer: 'none' });

/** The user of the Bearer token, as the guard verified it. */
export interface AuthUser {
  uuid: string;
  /** From the Bearer token: the token version it was issued at, and when it expires (epoch ms). */
  tokenVersion?: number;
  expiresAtMs?: number;
}

export type AuthedRequest = { user?: AuthUser };

/** The caller; undefined on routes whose Bearer token is optional and was not sent. */
export const CurrentUser = createParamDecorator(
  (_: unknown, context: ExecutionContext): AuthUser | undefined =>
    context.switchToHttp().getRequest<AuthedRequest>().user,
);
