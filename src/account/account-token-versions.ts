import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { TokenHolder, UserTokenVersions } from '../auth/user-token-versions';
import { CoalescedReads } from '../database/coalesced-reads';
import { isUuid } from '../common/uuid';

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

  constructor(private readonly dataSource: DataSource) {
    this.reads = new CoalescedReads((uuids) => this.readMany(uuids));
  }

  async holderOf(userUuid: string): Promise<TokenHolder | null> {
    if (!isUuid(userUuid)) return null;
    return (await this.reads.read(userUuid.toLowerCase())) ?? null;
  }

  private async readMany(uuids: string[]): Promise<Map<string, TokenHolder>> {
    const rows: Array<{ uuid: string; token_version: number }> = await this.dataSource.query(
      `SELECT uuid::text AS uuid, token_version FROM users WHERE uuid = ANY($1::uuid[])`,
      [uuids],
    );
    return new Map(
      rows.map((row) => [row.uuid, { uuid: row.uuid, tokenVersion: Number(row.token_version) }]),
    );
  }
}
