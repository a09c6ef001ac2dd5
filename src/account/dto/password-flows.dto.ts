import { IsEmail, IsNotEmpty, IsOptional, IsString, MaxLength, MinLength } from 'class-validator';
import { CodeText, EqualsField, Trim, TrimOrAbsent } from './account-validators';
import { PASSWORD_MAX, PASSWORD_MIN } from './register.dto';

export class RequestPasswordResetDto {
  /** The account's email; the answer is the same whether or not it is registered. */
  @Trim()
  @IsEmail()
  @MaxLength(320)
  email_address!: string;
}

export class ResetPasswordDto {
  @Trim()
  @IsEmail()
  @MaxLength(320)
  email_address!: string;

  /** The code from the reset email. */
  @CodeText()
  @IsString()
  @IsNotEmpty()
  @MaxLength(64)
  token_to_reset_password!: string;

  /** 4 to 256 characters. */
  @IsString()
  @MinLength(PASSWORD_MIN)
  @MaxLength(PASSWORD_MAX)
  new_password!: string;

  /** Must equal `new_password`. */
  @IsString()
  @EqualsField('new_password')
  new_password_confirmation!: string;
}

export class RequestPasswordChangeDto {
  /** When sent, must be the caller's own address (403 otherwise). */
  @IsOptional()
  @TrimOrAbsent()
  @IsEmail()
  @MaxLength(320)
  email_address?: string;
}

export class ChangePasswordDto {
  /** The code from the change email. */
  @CodeText()
  @IsString()
  @IsNotEmpty()
  @MaxLength(64)
  token_to_change_password!: string;

  /** The current password. */
  @IsString()
  @IsNotEmpty()
  @MaxLength(PASSWORD_MAX)
  old_password!: string;

  /** 4 to 256 characters. */
  @IsString()
  @MinLength(PASSWORD_MIN)
  @MaxLength(PASSWORD_MAX)
  new_password!: string;

  /** Must equal `new_password`. */
  @IsString()
  @EqualsField('new_password')
  new_password_confirmation!: string;

  /** When sent, must be the caller's own address (403 otherwise). */
  @IsOptional()
  @TrimOrAbsent()
  @IsEmail()
  @MaxLength(320)
  email_address?: string;
}

export class RequestEmailVerificationDto {
  /** When sent, must be the caller's own address (403 otherwise). */
  @IsOptional()
  @TrimOrAbsent()
  @IsEmail()
  @MaxLength(320)
  email_address?: string;
}

export class VerifyEmailAddressDto {
  /** The code from the verification email. */
  @CodeText()
  @IsString()
  @IsNotEmpty()
  @MaxLength(64)
  token_to_verify_email_address!: string;

  /** When sent, must be the caller's own address (403 otherwise). */
  @IsOptional()
  @TrimOrAbsent()
  @IsEmail()
  @MaxLength(320)
  email_address?: string;
}
