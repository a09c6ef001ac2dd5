import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { TokenHolder, UserTokenVersions } from '../auth/user-token-versions';
import { UserEntity } from './user.entity';

/** The account module's answer to the auth kernel: a user's current token version. */
@Injectable()
export class AccountTokenVersions implements UserTokenVersions {
  constructor(private readonly dataSource: DataSource) {}

  async holderOf(userUuid: string): Promise<TokenHolder | null> {
    const user = await this.dataSource
      .getRepository(UserEntity)
      .findOne({ select: { uuid: true, tokenVersion: true }, where: { uuid: userUuid } });
    return user ? { uuid: user.uuid, tokenVersion: user.tokenVersion } : null;
  }
}
