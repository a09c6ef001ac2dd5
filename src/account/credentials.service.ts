import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AuthUser } from '../auth/auth.decorator';
import { Clock } from '../common/clock';
import { ApiError } from '../http/api-error';
import { OutboxService } from '../outbox/outbox.service';
import { codeMail } from './account-mails';
import { codeRefused, notYourAccount } from './account-errors';
import { AccountRateLimits } from './account-rate-limits';
import { AccountRepository } from './account.repository';
import {
  ChangePasswordDto,
  RequestEmailVerificationDto,
  RequestPasswordChangeDto,
  RequestPasswordResetDto,
  ResetPasswordDto,
  VerifyEmailAddressDto,
} from './dto/password-flows.dto';
import { EmailVerifiedDto } from './dto/user-response.dto';
import { OneTimeCodeService } from './one-time-code.service';
import { PasswordHasher } from './password-hasher';
import { UserEntity } from './user.entity';
import { TokenPurpose } from './user-token.entity';

/**
 * The emailed-code flows of accounts: password reset, password change and
 * email verification. A code and its mail are written in one transaction;
 * the outbox worker sends the mail after commit.
 */
@Injectable()
export class CredentialsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly users: AccountRepository,
    private readonly codes: OneTimeCodeService,
    private readonly hasher: PasswordHasher,
    private readonly outbox: OutboxService,
    private readonly limits: AccountRateLimits,
    private readonly clock: Clock,
  ) {}

  /** The same answer whether or not the address is registered (no enumeration). */
  async requestPasswordReset(dto: RequestPasswordResetDto, ip: string): Promise<void> {
    await this.limits.perIpAndEmail('reset-password', ip, dto.email_address);
    const user = await this.users.findByEmail(dto.email_address);
    if (user) await this.sendCode(user, 'reset_password');
  }

  async resetPassword(dto: ResetPasswordDto, ip: string): Promise<void> {
    const field = 'token_to_reset_password';
    await this.limits.codeCheck(ip);
    const user = await this.users.findByEmail(dto.email_address);
    const matched = user
      ? await this.codes.match(user.uuid, 'reset_password', dto.token_to_reset_password)
      : undefined;
    if (!user || !matched) throw codeRefused(field);
    const newHash = await this.hasher.hash(dto.new_password);
    await this.dataSource.transaction(async (manager) => {
      if (!(await this.codes.redeem(manager, matched))) throw codeRefused(field);
      await this.users.replacePassword(manager, user.uuid, newHash);
      // The code arrived by email, which proves the address as well.
      await this.users.markEmailVerified(manager, user.uuid, this.clock.now());
    });
  }

  async requestPasswordChange(
    caller: AuthUser,
    dto: RequestPasswordChangeDto,
    ip: string,
  ): Promise<void> {
    const user = await this.caller(caller, dto.email_address);
    await this.limits.perIpAndEmail('change-password', ip, user.email);
    await this.sendCode(user, 'change_password');
  }

  /** Needs the emailed code and the current password; voids every earlier JWT, the caller's too. */
  async changePassword(caller: AuthUser, dto: ChangePasswordDto, ip: string): Promise<void> {
    const field = 'token_to_change_password';
    const user = await this.caller(caller, dto.email_address);
    await this.limits.codeCheck(ip);
    const matched = await this.codes.match(
      user.uuid,
      'change_password',
      dto.token_to_change_password,
    );
    if (!matched) throw codeRefused(field);
    // A wrong current password has spent one of the code's five tries.
    if (!(await this.hasher.verify(user.passwordHash, dto.old_password))) {
      const message = 'The current password is wrong.';
      throw ApiError.unprocessable(message, [{ field: 'old_password', message }]);
    }
    const newHash = await this.hasher.hash(dto.new_password);
    await this.dataSource.transaction(async (manager) => {
      if (!(await this.codes.redeem(manager, matched))) throw codeRefused(field);
      // Only if the password is still the one just checked.
      if (!(await this.users.replacePassword(manager, user.uuid, newHash, user.passwordHash))) {
        throw ApiError.conflict('The password was changed meanwhile; try again.');
      }
    });
  }

  /** False when the address is already verified (no mail is sent then). */
  async requestEmailVerification(
    caller: AuthUser,
    dto: RequestEmailVerificationDto,
    ip: string,
  ): Promise<boolean> {
    const user = await this.caller(caller, dto.email_address);
    if (user.emailVerifiedAt) return false;
    await this.limits.perIpAndEmail('verify-email', ip, user.email);
    await this.sendCode(user, 'verify_email');
    return true;
  }

  async verifyEmail(
    caller: AuthUser,
    dto: VerifyEmailAddressDto,
    ip: string,
  ): Promise<EmailVerifiedDto> {
    const field = 'token_to_verify_email_address';
    const user = await this.caller(caller, dto.email_address);
    await this.limits.codeCheck(ip);
    const matched = await this.codes.match(
      user.uuid,
      'verify_email',
      dto.token_to_verify_email_address,
    );
    if (!matched) throw codeRefused(field);
    const verifiedAt = await this.dataSource.transaction(async (manager) => {
      if (!(await this.codes.redeem(manager, matched))) throw codeRefused(field);
      return this.users.markEmailVerified(manager, user.uuid, this.clock.now());
    });
    return { email_verified_at: verifiedAt.toISOString() };
  }

  /**
   * The Bearer token's user. An `email_address` in the body never selects
   * the account: when sent it must be the caller's own (403 otherwise).
   */
  private async caller(caller: AuthUser, emailAddress: string | undefined): Promise<UserEntity> {
    const user = await this.users.findByUuid(caller.uuid);
    if (!user) throw ApiError.unauthenticated('The token is no longer valid; log in again.');
    if (emailAddress !== undefined && emailAddress.toLowerCase() !== user.email.toLowerCase()) {
      throw notYourAccount();
    }
    return user;
  }

  /** The new code (voiding the previous one of this purpose) and its mail, committed together. */
  private async sendCode(user: UserEntity, purpose: TokenPurpose): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      const code = await this.codes.issue(manager, user.uuid, purpose);
      await this.outbox.enqueueMail(manager, codeMail(purpose, user, code));
    });
  }
}
