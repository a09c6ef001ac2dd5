import { Injectable } from '@nestjs/common';
import { TokenHolder, UserTokenVersions } from '../auth/user-token-versions';
import { CoalescedReads } from '../database/coalesced-reads';
import { isUuid } from '../common/uuid';
import { AccountRepository } from './account.repository';

/**
 * The account module's answer to the auth kernel: a user's current token
 * version. Every authenticated request asks, so the requests that arrive
 * together share one statement (each still reads after it arrived: a
 * password change that has answered voids the old tokens of every request
 * that comes after it).
 */
@Injectable()
export class AccountTokenVersions implements UserTokenVersions {
  private readonly reads: CoalescedReads<TokenHolder>;

  constructor(private readonly users: AccountRepository) {
    this.reads = new CoalescedReads((uuids) => this.readMany(uuids));
  }

  async holderOf(userUuid: string): Promise<TokenHolder | null> {
    if (!isUuid(userUuid)) return null;
    return (await this.reads.read(userUuid.toLowerCase())) ?? null;
  }

  async versionsOf(userUuids: readonly string[]): Promise<Map<string, number>> {
    return this.users.tokenVersionsOf(userUuids);
  }

  private async readMany(uuids: string[]): Promise<Map<string, TokenHolder>> {
    const versions = await this.users.tokenVersionsOf(uuids);
    return new Map([...versions].map(([uuid, tokenVersion]) => [uuid, { uuid, tokenVersion }]));
  }
}
