import { createSecretKey } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { Request } from 'express';
import { ExtractJwt, Strategy } from 'passport-jwt';
import { AppConfig } from '../config/config';
import { InjectConfig } from '../config/config.module';
import { ApiError } from '../http/api-error';
import { AuthUser } from './auth.decorator';
import { UserTokenVersions } from './user-token-versions';
import { isUuid } from '../common/uuid';

export const QUERY_TOKEN_ALLOWED = Symbol('queryTokenAllowed');

export interface JwtPayload {
  sub: string;
  /** The user's token_version when the token was issued; a newer version voids the token. */
  ver: number;
  /** Expiry, seconds since the epoch. */
  exp?: number;
}

/** ?access_token= only on routes that declared queryCredentials (SSE). */
function fromQueryWhenAllowed(req: Request): string | null {
  const allowed = (req as unknown as Record<symbol, boolean>)[QUERY_TOKEN_ALLOWED];
  const token = req.query.access_token;
  return allowed && typeof token === 'string' ? token : null;
}

@Injectable()
export class JwtStrategy extends PassportStrategy(Strategy, 'jwt') {
  constructor(
    @InjectConfig() config: AppConfig,
    private readonly tokenVersions: UserTokenVersions,
  ) {
    super({
      jwtFromRequest: ExtractJwt.fromExtractors([
        ExtractJwt.fromAuthHeaderAsBearerToken(),
        fromQueryWhenAllowed,
      ]),
      // A ready secret KeyObject: given a string, jsonwebtoken first tries to
      // read it as a public key on every verify, about 1 ms per request. The
      // typings lag jsonwebtoken 9, which takes KeyObjects.
      secretOrKey: createSecretKey(Buffer.from(config.jwtSecret)) as unknown as Buffer,
      algorithms: ['HS256'],
      ignoreExpiration: false,
    });
  }

  /** A signature is not enough: a password reset or change voids older tokens. */
  async validate(payload: Partial<JwtPayload>): Promise<AuthUser> {
    if (
      typeof payload.sub !== 'string' ||
      !isUuid(payload.sub) ||
      typeof payload.ver !== 'number'
    ) {
      throw ApiError.unauthenticated('The token is not valid.');
    }
    const user = await this.tokenVersions.holderOf(payload.sub);
    if (!user || user.tokenVersion !== payload.ver) {
      throw ApiError.unauthenticated('The token is no longer valid; log in again.');
    }
    // Kept with the caller so a stream opened with this token can be checked again later.
    return {
      uuid: user.uuid,
      tokenVersion: user.tokenVersion,
      expiresAtMs: typeof payload.exp === 'number' ? payload.exp * 1000 : undefined,
    };
  }
}
