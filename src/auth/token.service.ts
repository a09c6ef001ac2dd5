import { Injectable } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import { AppConfig } from '../config/config';
import { InjectConfig } from '../config/config.module';
import { JwtPayload } from './jwt.strategy';

export interface IssuedToken {
  accessToken: string;
  expiresIn: number;
}

@Injectable()
export class TokenService {
  constructor(
    private readonly jwt: JwtService,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  /** HS256, sub = user uuid, ver = token version, expiry from JWT_EXPIRES_IN. */
  async issue(user: { uuid: string; tokenVersion: number }): Promise<IssuedToken> {
    const payload: JwtPayload = { sub: user.uuid, ver: user.tokenVersion };
    const accessToken = await this.jwt.signAsync(payload, {
      secret: this.config.jwtSecret,
      algorithm: 'HS256',
      expiresIn: this.config.jwtExpiresInSeconds,
    });
    return { accessToken, expiresIn: this.config.jwtExpiresInSeconds };
  }
}
