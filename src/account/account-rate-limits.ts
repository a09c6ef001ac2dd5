import { Injectable } from '@nestjs/common';
import { AppConfig } from '../config/config';
import { InjectConfig } from '../config/config.module';
import { RateLimitService } from '../rate-limit/rate-limit.service';

/** Register, login and the three endpoints that email a code: each is rate-limited. */
export type LimitedAction = 'login' | 'reset-password' | 'change-password' | 'verify-email';

/**
 * RATE_LIMIT_AUTH_PER_MINUTE (default 10) per IP and per email, each
 * action counted on its own. The code-checking endpoints get the same limit
 * per IP, so that they cannot be used to burn password-hashing CPU.
 */
// R10: account rate limits.
@Injectable()
export class AccountRateLimits {
  constructor(
    private readonly limiter: RateLimitService,
    @InjectConfig() private readonly config: AppConfig,
  ) {}

  async perIpAndEmail(action: LimitedAction, ip: string, email: string): Promise<void> {
    const limit = this.config.rateLimitAuthPerMinute;
    await this.limiter.consume(`${action}-ip`, ip, limit, 60);
    await this.limiter.consume(`${action}-email`, email.trim().toLowerCase(), limit, 60);
  }

  /**
   * Sign-up per IP: its 409 says whether an email has an account, so a
   * stranger must not be able to ask it at any speed.
   */
  async register(ip: string): Promise<void> {
    await this.limiter.consume('register-ip', ip, this.config.rateLimitAuthPerMinute, 60);
  }

  async codeCheck(ip: string): Promise<void> {
    await this.limiter.consume('code-check-ip', ip, this.config.rateLimitAuthPerMinute, 60);
  }
}
