import { Body, HttpCode, Ip, Param, Post, Put, Get } from '@nestjs/common';
import { ApiBody, ApiTags } from '@nestjs/swagger';
import { ApiKeyOnly, Auth, AuthUser, CurrentUser } from '../auth/auth.decorator';
import { ApiEnvelope, ApiErrors } from '../http/api-docs';
import { ApiError } from '../http/api-error';
import { ApiResult } from '../http/envelope';
import { Message } from '../http/envelope-routes';
import { SpaceController } from '../http/url-space';
import { AccountService } from './account.service';
import { CredentialsService } from './credentials.service';
import { LoginUserDto } from './dto/login.dto';
import {
  ChangePasswordDto,
  RequestEmailVerificationDto,
  RequestPasswordChangeDto,
  RequestPasswordResetDto,
  ResetPasswordDto,
  VerifyEmailAddressDto,
} from './dto/password-flows.dto';
import { RegisterUserDto } from './dto/register.dto';
import { UpdateUserDto } from './dto/update-user.dto';
import {
  EmailVerifiedDto,
  LoginResultDto,
  RegisteredUserDto,
  UserProfileDto,
} from './dto/user-response.dto';

/** req.ip is undefined only when the socket is already gone. */
const ipOf = (ip: string | undefined) => ip ?? 'unknown';

/** Accounts: register, login, profile and the emailed-code flows. */
@ApiTags('accounts')
@SpaceController('core', 'user')
export class AccountController {
  constructor(
    private readonly accounts: AccountService,
    private readonly credentials: CredentialsService,
  ) {}

  /**
   * Sign up
   *
   * @remarks Creates an account and answers the user without a token (log in next). The email must
   * be valid and unused, ignoring case, and the username unused (409 otherwise); the password has
   * at least 4 characters and equals `password_confirmation` (400). `meta_data` is any JSON object
   * or array up to 16 KiB, stored as sent. Limited per IP (10 a minute by default; 429
   * `RATE_LIMITED` beyond).
   */
  @Post('register')
  @ApiKeyOnly()
  @Message('Registration successful')
  @ApiEnvelope(RegisteredUserDto, { status: 201 })
  @ApiErrors(400, 409, 429)
  registerUser(@Body() dto: RegisterUserDto, @Ip() ip?: string): Promise<RegisteredUserDto> {
    return this.accounts.register(dto, ipOf(ip));
  }

  /**
   * Log in
   *
   * @remarks Answers an access token (JWT, HS256) to send as `Authorization: Bearer <token>`, with
   * `expires_in` in seconds and the user's profile. A wrong email or password is 401
   * `INVALID_CREDENTIALS` with the same message whether or not the email exists. Limited per IP
   * and per email (10 a minute by default; 429 `RATE_LIMITED` beyond).
   */
  @Post('login')
  @HttpCode(200)
  @ApiKeyOnly()
  @Message('Login successful')
  @ApiEnvelope(LoginResultDto)
  @ApiErrors(400, 429)
  loginUser(@Body() dto: LoginUserDto, @Ip() ip?: string): Promise<LoginResultDto> {
    return this.accounts.login(dto, ipOf(ip));
  }

  /**
   * Ask for a password reset code
   *
   * @remarks Emails a 6-digit code to reset the password of the account with this address. The
   * answer is the same whether or not the address belongs to an account, so it cannot be used to
   * find accounts. A code expires after 30 minutes, works once, dies after 5 wrong tries, and a
   * new one voids the previous. Rate limited.
   */
  @Post('reset-password')
  @HttpCode(200)
  @ApiKeyOnly()
  @Message(
    'If the address belongs to an account, a code to reset its password has been sent to it.',
  )
  @ApiEnvelope(null)
  @ApiErrors(400, 429)
  requestPasswordReset(@Body() dto: RequestPasswordResetDto, @Ip() ip?: string): Promise<void> {
    return this.credentials.requestPasswordReset(dto, ipOf(ip));
  }

  /**
   * Reset the password with the emailed code
   *
   * @remarks Sets a new password with the code from the reset email. Every access token issued
   * before stops working. A wrong, used or expired code is 422 `UNPROCESSABLE`.
   */
  @Post('reset-password/validate')
  @HttpCode(200)
  @ApiKeyOnly()
  @Message('Password reset; log in with the new password.')
  @ApiEnvelope(null)
  @ApiErrors(400, 422, 429)
  resetPassword(@Body() dto: ResetPasswordDto, @Ip() ip?: string): Promise<void> {
    return this.credentials.resetPassword(dto, ipOf(ip));
  }

  /**
   * Ask for a password change code
   *
   * @remarks Emails the caller a code to confirm a password change. `email_address`, when sent,
   * must be the caller's (403 otherwise).
   */
  @Post('change-password')
  @HttpCode(200)
  @Auth()
  @Message('A code to change your password has been sent to your email address.')
  @ApiEnvelope(null)
  @ApiErrors(400, 403, 429)
  requestPasswordChange(
    @CurrentUser() user: AuthUser,
    @Body() dto: RequestPasswordChangeDto,
    @Ip() ip?: string,
  ): Promise<void> {
    return this.credentials.requestPasswordChange(user, dto, ipOf(ip));
  }

  /**
   * Change the password
   *
   * @remarks Changes the caller's password with the emailed code and the old password. Every
   * access token issued before stops working (log in again). A wrong code or old password is 422.
   */
  @Post('change-password/validate')
  @HttpCode(200)
  @Auth()
  @Message('Password changed; log in again with the new password.')
  @ApiEnvelope(null)
  @ApiErrors(400, 403, 409, 422, 429)
  changePassword(
    @CurrentUser() user: AuthUser,
    @Body() dto: ChangePasswordDto,
    @Ip() ip?: string,
  ): Promise<void> {
    return this.credentials.changePassword(user, dto, ipOf(ip));
  }

  /**
   * Ask for an email verification code
   *
   * @remarks Emails the caller a code that verifies their address; answers that nothing was sent
   * when the address is already verified.
   */
  @Post('verify-email-address')
  @HttpCode(200)
  @Auth()
  @ApiEnvelope(null)
  @ApiErrors(400, 403, 429)
  async requestEmailVerification(
    @CurrentUser() user: AuthUser,
    @Body() dto: RequestEmailVerificationDto,
    @Ip() ip?: string,
  ): Promise<ApiResult<null>> {
    const sent = await this.credentials.requestEmailVerification(user, dto, ipOf(ip));
    return new ApiResult(
      null,
      sent
        ? 'A verification code has been sent to your email address.'
        : 'Your email address is already verified.',
    );
  }

  /**
   * Verify the email address
   *
   * @remarks Marks the caller's address verified with the emailed code and answers
   * `email_verified_at`. A wrong, used or expired code is 422.
   */
  @Post('verify-email-address/validate')
  @HttpCode(200)
  @Auth()
  @Message('Email address verified')
  @ApiEnvelope(EmailVerifiedDto)
  @ApiErrors(400, 403, 422, 429)
  verifyEmailAddress(
    @CurrentUser() user: AuthUser,
    @Body() dto: VerifyEmailAddressDto,
    @Ip() ip?: string,
  ): Promise<EmailVerifiedDto> {
    return this.credentials.verifyEmail(user, dto, ipOf(ip));
  }

  /**
   * Sign in through an identity provider (not enabled)
   *
   * @remarks Always 404 `NOT_FOUND`: no identity provider is configured, so sign-in through one is
   * not enabled. Kept so that clients that call it get a clear answer.
   */
  @Post('oauth/:provider/callback')
  @HttpCode(404)
  @ApiKeyOnly()
  @ApiBody({ required: false, schema: { type: 'object', additionalProperties: true } })
  @ApiErrors(404)
  // R8: identity providers.
  identityProviderCallback(@Param('provider') _provider: string): never {
    throw ApiError.notFound('Identity-provider sign-in is not enabled.');
  }

  /**
   * Read your profile
   *
   * @remarks The caller's own user record without secrets. Another user's uuid is 403 `FORBIDDEN`.
   */
  @Get(':uuid')
  @Auth()
  @Message('User retrieved')
  @ApiEnvelope(UserProfileDto)
  @ApiErrors(403)
  getUserProfile(
    @CurrentUser() user: AuthUser,
    @Param('uuid') uuid: string,
  ): Promise<UserProfileDto> {
    return this.accounts.getProfile(user, uuid);
  }

  /**
   * Update your profile
   *
   * @remarks Changes the caller's `name`, `username` (unique, 409 when taken) or `meta_data`
   * (object or array, up to 16 KiB). Another user's uuid is 403.
   */
  @Put(':uuid')
  @Auth()
  @Message('User updated')
  @ApiEnvelope(UserProfileDto)
  @ApiErrors(400, 403, 409)
  updateUserProfile(
    @CurrentUser() user: AuthUser,
    @Param('uuid') uuid: string,
    @Body() dto: UpdateUserDto,
  ): Promise<UserProfileDto> {
    return this.accounts.updateProfile(user, uuid, dto);
  }
}
