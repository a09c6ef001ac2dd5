import { Body, HttpCode, Ip, Param, Post, Put, Get } from '@nestjs/common';
import { ApiBody, ApiTags } from '@nestjs/swagger';
import { ApiKeyOnly, Auth, AuthUser, CurrentUser } from '../auth/auth.decorator';
import { ApiEnvelope, ApiErrors } from '../http/api-docs';
import { ApiError } from '../http/api-error';
import { ApiResult } from '../http/envelope';
import { Message } from '../http/envelope.interceptor';
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

/** Accounts (API.md §3). */
@ApiTags('Account')
@SpaceController('core', 'user')
export class AccountController {
  constructor(
    private readonly accounts: AccountService,
    private readonly credentials: CredentialsService,
  ) {}

  @Post('register')
  @ApiKeyOnly()
  @Message('Registration successful')
  @ApiEnvelope(RegisteredUserDto, { status: 201 })
  @ApiErrors(400, 409)
  registerUser(@Body() dto: RegisterUserDto): Promise<RegisteredUserDto> {
    return this.accounts.register(dto);
  }

  @Post('login')
  @HttpCode(200)
  @ApiKeyOnly()
  @Message('Login successful')
  @ApiEnvelope(LoginResultDto)
  @ApiErrors(400, 429)
  loginUser(@Body() dto: LoginUserDto, @Ip() ip?: string): Promise<LoginResultDto> {
    return this.accounts.login(dto, ipOf(ip));
  }

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

  @Post('reset-password/validate')
  @HttpCode(200)
  @ApiKeyOnly()
  @Message('Password reset; log in with the new password.')
  @ApiEnvelope(null)
  @ApiErrors(400, 422, 429)
  resetPassword(@Body() dto: ResetPasswordDto, @Ip() ip?: string): Promise<void> {
    return this.credentials.resetPassword(dto, ipOf(ip));
  }

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

  /** D8: no identity provider is configured, so sign-in through one is not enabled. */
  @Post('oauth/:provider/callback')
  @HttpCode(404)
  @ApiKeyOnly()
  @ApiBody({ required: false, schema: { type: 'object', additionalProperties: true } })
  @ApiErrors(404)
  identityProviderCallback(@Param('provider') _provider: string): never {
    throw ApiError.notFound('Identity-provider sign-in is not enabled.');
  }

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
