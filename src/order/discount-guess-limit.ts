import { Injectable, Logger } from '@nestjs/common';
import { AppConfig } from '../config/config';
import { InjectConfig } from '../config/config.module';
import { RateLimitHit, RateLimitService } from '../rate-limit/rate-limit.service';

const BUCKET = 'discount-unknown-ip-menu';

/** What the limit reads of a quote's or placement's body. */
export interface CodedBody {
  menu_uuid: string;
  discount_code?: string | null;
}

/**
 * Guessing discount codes is limited: unknown codes are counted per client
 * IP and menu over quotes and placements (RATE_LIMIT_UNKNOWN_CODE_PER_MINUTE,
 * 10 by default). Once that many were tried in the minute, every quote or
 * placement from that IP for that menu that carries a `discount_code` is
 * 429 with Retry-After until the minute ends; one without a code is not held
 * back. The counters are the rate limiter's, shared by every replica on a
 * server database.
 *
 * A request with a code is counted before it runs and given back once it
 * turns out the code is known (or was never checked), so simultaneous
 * guesses cannot pass more than the limit between them.
 */
// R71: guessing is limited.
@Injectable()
export class DiscountGuessLimit {
  private readonly logger = new Logger('DiscountGuessLimit');

  constructor(
    @InjectConfig() private readonly config: AppConfig,
    private readonly limiter: RateLimitService,
  ) {}

  /** Before the request runs: null when it carries no code, else the hit to settle. */
  async admit(clientIp: string, body: CodedBody): Promise<RateLimitHit | null> {
    const code = typeof body.discount_code === 'string' ? body.discount_code.trim() : '';
    if (code === '') return null;
    const key = `${clientIp || 'unknown'}\n${body.menu_uuid.toLowerCase()}`;
    return this.limiter.take(BUCKET, key, this.config.rateLimitUnknownCodePerMinute, 60);
  }

  /**
   * After it ran (or failed): an unknown code stays counted, anything else
   * is given back. Never throws: a give-back that fails only costs the
   * client one try of its allowance, and must not replace the answer.
   */
  async settle(hit: RateLimitHit | null, unknownCode: boolean): Promise<void> {
    if (!hit || unknownCode) return;
    try {
      await this.limiter.giveBack(hit);
    } catch (error) {
      this.logger.warn(`Giving back a discount-code try failed: ${String(error)}`);
    }
  }
}
