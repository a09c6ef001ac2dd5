import { MetaData } from '../user.entity';
import { ApiProperty } from '@nestjs/swagger';
import { UserEntity } from '../user.entity';

/** A new account (register answer): no token, the client logs in next. */
export class RegisteredUserDto {
  uuid!: string;
  email!: string;
  name!: string;
  username!: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, example: null })
  email_verified_at!: string | null;
  @ApiProperty({ type: String, format: 'date-time' })
  created_at!: string;
}

/** The login answer; the owner client reads every field. */
export class LoginResultDto {
  /** JWT (HS256) to send as `Authorization: Bearer <access_token>`. */
  access_token!: string;
  @ApiProperty({ enum: ['Bearer'] })
  token_type!: 'Bearer';
  /** Seconds until the token expires. */
  @ApiProperty({ type: 'integer', example: 86400 })
  expires_in!: number;
  uuid!: string;
  email!: string;
  name!: string;
  username!: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  email_verified_at!: string | null;
}

/** The caller's profile: never the password hash nor any token. */
export class UserProfileDto {
  uuid!: string;
  email!: string;
  name!: string;
  username!: string;
  @ApiProperty({
    oneOf: [
      { type: 'object', additionalProperties: true },
      { type: 'array', items: {} },
    ],
  })
  meta_data!: MetaData;
  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  email_verified_at!: string | null;
  @ApiProperty({ type: String, format: 'date-time' })
  created_at!: string;
  @ApiProperty({ type: String, format: 'date-time' })
  updated_at!: string;
}

export class EmailVerifiedDto {
  @ApiProperty({ type: String, format: 'date-time' })
  email_verified_at!: string;
}

const iso = (date: Date | null): string | null => (date ? date.toISOString() : null);

export function toRegisteredUserResponse(user: UserEntity): RegisteredUserDto {
  return {
    uuid: user.uuid,
    email: user.email,
    name: user.name,
    username: user.username,
    email_verified_at: iso(user.emailVerifiedAt),
    created_at: user.createdAt.toISOString(),
  };
}

export function toLoginResponse(
  user: UserEntity,
  token: { accessToken: string; expiresIn: number },
): LoginResultDto {
  return {
    access_token: token.accessToken,
    token_type: 'Bearer',
    expires_in: token.expiresIn,
    uuid: user.uuid,
    email: user.email,
    name: user.name,
    username: user.username,
    email_verified_at: iso(user.emailVerifiedAt),
  };
}

export function toUserProfileResponse(user: UserEntity): UserProfileDto {
  return {
    uuid: user.uuid,
    email: user.email,
    name: user.name,
    username: user.username,
    meta_data: user.metaData ?? {},
    email_verified_at: iso(user.emailVerifiedAt),
    created_at: user.createdAt.toISOString(),
    updated_at: user.updatedAt.toISOString(),
  };
}
