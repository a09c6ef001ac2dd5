import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Clock } from '../common/clock';
import { AppConfig } from '../config/config';
import { InjectConfig } from '../config/config.module';
import {
  CODE_LIFETIME_MS,
  CODE_MAX_ATTEMPTS,
  codeHashKey,
  generateCode,
  hashCode,
  sameHash,
} from './one-time-code';
import { TokenPurpose } from './user-token.entity';
import { UserTokenRepository } from './user-token.repository';

/** A code that matched: pass it to redeem() inside the transaction that acts on it. */
export interface MatchedCode {
  userUuid: string;
  purpose: TokenPurpose;
  tokenHash: string;
}

/**
 * The emailed one-time codes: random, stored only as a keyed hash,
 * 30 minutes, one use, five tries, a new one voids the old.
 */
@Injectable()
export class OneTimeCodeService {
  private readonly key: Buffer;

  constructor(
    private readonly tokens: UserTokenRepository,
    private readonly clock: Clock,
    @InjectConfig() config: AppConfig,
  ) {
    this.key = codeHashKey(config.jwtSecret);
  }

  /** A new code, stored (hashed) in the caller's transaction; the caller mails it in that transaction too. */
  async issue(manager: EntityManager, userUuid: string, purpose: TokenPurpose): Promise<string> {
    const code = generateCode();
    const now = this.clock.now();
    await this.tokens.replace(
      manager,
      userUuid,
      purpose,
      hashCode(this.key, userUuid, purpose, code),
      new Date(now.getTime() + CODE_LIFETIME_MS),
      now,
    );
    return code;
  }

  /**
   * Spends one try and compares. Runs outside any transaction so the spent
   * try stays spent even when the request is refused. Undefined when the
   * code is wrong or there is no live code.
   */
  async match(
    userUuid: string,
    purpose: TokenPurpose,
    code: string,
  ): Promise<MatchedCode | undefined> {
    const stored = await this.tokens.spendAttempt(
      userUuid,
      purpose,
      this.clock.now(),
      CODE_MAX_ATTEMPTS,
    );
    if (!stored) return undefined;
    const offered = hashCode(this.key, userUuid, purpose, code);
    return sameHash(stored, offered) ? { userUuid, purpose, tokenHash: stored } : undefined;
  }

  /** Uses the matched code up, in the transaction that acts on it; false means roll back and refuse. */
  redeem(manager: EntityManager, matched: MatchedCode): Promise<boolean> {
    return this.tokens.markUsed(
      manager,
      matched.userUuid,
      matched.purpose,
      matched.tokenHash,
      this.clock.now(),
    );
  }
}
