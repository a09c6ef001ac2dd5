import { Module } from '@nestjs/common';
import { UserTokenVersions } from '../auth/user-token-versions';
import { AccountTokenVersions } from './account-token-versions';
import { AccountController } from './account.controller';
import { AccountRateLimits } from './account-rate-limits';
import { AccountRepository } from './account.repository';
import { AccountService } from './account.service';
import { CredentialsService } from './credentials.service';
import { OneTimeCodeService } from './one-time-code.service';
import { PasswordHasher } from './password-hasher';
import { UserContacts } from './user-contacts';
import { UserTokenRepository } from './user-token.repository';

@Module({
  controllers: [AccountController],
  providers: [
    AccountService,
    CredentialsService,
    AccountRepository,
    UserTokenRepository,
    OneTimeCodeService,
    PasswordHasher,
    AccountRateLimits,
    UserContacts,
    { provide: UserTokenVersions, useClass: AccountTokenVersions },
  ],
  exports: [AccountService, UserContacts, UserTokenVersions],
})
export class AccountModule {}
