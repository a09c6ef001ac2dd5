import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { TokenPurpose } from './user-token.entity';

/** All SQL on `user_tokens`. */
@Injectable()
export class UserTokenRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Stores the new code of this purpose in place of any earlier one (a
   * new code voids the old), with fresh expiry and attempts.
   */
  async replace(
    manager: EntityManager,
    userUuid: string,
    purpose: TokenPurpose,
    tokenHash: string,
    expiresAt: Date,
    now: Date,
  ): Promise<void> {
    await manager.query(
      `INSERT INTO user_tokens (user_uuid, purpose, token_hash, expires_at, attempts, used_at, created_at)
       VALUES ($1, $2, $3, $4, 0, NULL, $5)
       ON CONFLICT (user_uuid, purpose) DO UPDATE
         SET token_hash = EXCLUDED.token_hash, expires_at = EXCLUDED.expires_at,
             attempts = 0, used_at = NULL, created_at = EXCLUDED.created_at`,
      [userUuid, purpose, tokenHash, expiresAt, now],
    );
  }

  /**
   * Spends one try on the live code of this purpose, atomically, so
   * concurrent guesses cannot get past the limit: answers its hash, or
   * undefined when there is no live code (none, used, expired, or out of tries).
   */
  async spendAttempt(
    userUuid: string,
    purpose: TokenPurpose,
    now: Date,
    maxAttempts: number,
  ): Promise<string | undefined> {
    const [rows]: [Array<{ token_hash: string }>, number] = await this.dataSource.query(
      `UPDATE user_tokens SET attempts = attempts + 1
        WHERE user_uuid = $1 AND purpose = $2 AND used_at IS NULL
          AND expires_at > $3 AND attempts < $4
      RETURNING token_hash`,
      [userUuid, purpose, now, maxAttempts],
    );
    return rows[0]?.token_hash;
  }

  /**
   * Marks the code used inside the transaction that acts on it. False when it
   * is no longer the live code (used by a concurrent request, replaced by a
   * newer one, or expired meanwhile): the caller rolls back.
   */
  async markUsed(
    manager: EntityManager,
    userUuid: string,
    purpose: TokenPurpose,
    tokenHash: string,
    now: Date,
  ): Promise<boolean> {
    const [, affected]: [unknown, number] = await manager.query(
      `UPDATE user_tokens SET used_at = $4
        WHERE user_uuid = $1 AND purpose = $2 AND token_hash = $3
          AND used_at IS NULL AND expires_at > $4`,
      [userUuid, purpose, tokenHash, now],
    );
    return affected > 0;
  }
}
