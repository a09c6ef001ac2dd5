import { CanActivate, ExecutionContext, Injectable, Logger } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard as PassportAuthGuard } from '@nestjs/passport';
import { Request } from 'express';
import { AppConfig } from '../config/config';
import { InjectConfig } from '../config/config.module';
import { ApiError } from '../http/api-error';
import { ApiKeys } from './api-keys';
import { AUTH_KEY, AuthRequirement, AuthUser } from './auth.decorator';
import { QUERY_TOKEN_ALLOWED } from './jwt.strategy';

class JwtPassportGuard extends PassportAuthGuard('jwt') {
  override handleRequest<T = AuthUser>(error: unknown, user: T | false): T {
    if (error) throw error instanceof ApiError ? error : ApiError.unauthenticated();
    if (!user)
      throw ApiError.unauthenticated(
        'The Bearer token is missing, malformed, expired or not valid.',
      );
    return user;
  }
}

/**
 * The one global guard. Every route states its needs with @Auth (or
 * @ApiKeyOnly / @Public); a route that states nothing is refused.
 */
// R7: api key everywhere.
@Injectable()
export class GlobalAuthGuard implements CanActivate {
  private readonly logger = new Logger('Auth');
  private readonly apiKeys: ApiKeys;
  private readonly jwt = new JwtPassportGuard();

  constructor(
    private readonly reflector: Reflector,
    @InjectConfig() config: AppConfig,
  ) {
    this.apiKeys = new ApiKeys(config.apiKeys);
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType() !== 'http') return true;
    const requirement = this.reflector.getAllAndOverride<AuthRequirement | undefined>(AUTH_KEY, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (!requirement) {
      this.logger.error(
        `${context.getClass().name}.${context.getHandler().name} declares no @Auth; refused`,
      );
      throw ApiError.forbidden('This route is closed.');
    }
    const request = context.switchToHttp().getRequest<Request>();
    if (requirement.apiKey) {
      const key =
        request.header('x-api-key') ??
        (requirement.queryCredentials ? request.query.api_key : undefined);
      if (!this.apiKeys.matches(key)) {
        throw new ApiError(401, 'API_KEY_INVALID', 'A valid x-api-key header is required.');
      }
    }
    if (requirement.bearer === 'none') return true;
    const queryToken =
      requirement.queryCredentials && typeof request.query.access_token === 'string';
    if (!request.headers.authorization && !queryToken) {
      if (requirement.bearer === 'optional') return true;
      throw ApiError.unauthenticated('A Bearer token is required.');
    }
    (request as unknown as Record<symbol, boolean>)[QUERY_TOKEN_ALLOWED] =
      requirement.queryCredentials;
    return (await this.jwt.canActivate(context)) as boolean;
  }
}
