import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsEmail, IsIn, IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { BusinessMemberEntity, MemberRole, MemberStatus } from '../business-member.entity';

export const MEMBER_ROLES: readonly MemberRole[] = ['manager', 'staff'];

const toWholeNumber = ({ value }: { value: unknown }) =>
  typeof value === 'string' && /^\d{1,15}$/.test(value) ? Number(value) : value;

export class InviteMemberDto {
  /** The address the invitation is mailed to; compared without regard to case. */
  @ApiProperty({ example: 'chef@example.com', maxLength: 320 })
  @IsString()
  @MaxLength(320)
  @IsEmail({}, { message: 'email must be a valid email address' })
  email!: string;

  /** `manager` or `staff`: what the member may do on this business. */
  @ApiProperty({ enum: MEMBER_ROLES, example: 'staff' })
  @IsIn(MEMBER_ROLES, { message: 'role must be manager or staff' })
  role!: MemberRole;
}

export class ChangeMemberRoleDto {
  /** The new role: `manager` or `staff`. */
  @ApiProperty({ enum: MEMBER_ROLES, example: 'manager' })
  @IsIn(MEMBER_ROLES, { message: 'role must be manager or staff' })
  role!: MemberRole;
}

export class AcceptInvitationDto {
  /** The token of the invitation link, as mailed. */
  @ApiProperty({ example: 'Vh3bq0S1m2yq8dFzY0C6nQ4b2cUeWk7tJx1pLr9aZs8', maxLength: 200 })
  @IsString()
  @MaxLength(200)
  token!: string;
}

export class ListMembersQueryDto {
  /** From 1. */
  @IsOptional()
  @Transform(toWholeNumber)
  @IsInt()
  @Min(1)
  @ApiPropertyOptional({ type: 'integer', example: 1 })
  page?: number;

  /** Default 50 (a business has at most 50 members and invitations). */
  @IsOptional()
  @Transform(toWholeNumber)
  @IsInt()
  @Min(1)
  @Max(1000)
  @ApiPropertyOptional({ type: 'integer', example: 50 })
  per_page?: number;
}

export class MemberResponseDto {
  @ApiProperty({ format: 'uuid', example: '9b2f0c1e-7d4a-4c1b-9e7f-2a6d8b0c4e55' })
  uuid!: string;

  /** The invited address, lower-case. */
  @ApiProperty({ example: 'chef@example.com' })
  email!: string;

  @ApiProperty({ enum: MEMBER_ROLES, example: 'staff' })
  role!: MemberRole;

  /** `invited` until the invitation is accepted, then `active`. */
  @ApiProperty({ enum: ['invited', 'active'], example: 'invited' })
  status!: MemberStatus;

  /** The account that accepted; null while invited. */
  @ApiProperty({ type: 'string', format: 'uuid', nullable: true, example: null })
  user_uuid!: string | null;

  @ApiProperty({ format: 'date-time', example: '2026-11-25T10:00:00.000Z' })
  invited_at!: string;

  /** When the invitation stops working (7 days after it was sent). */
  @ApiProperty({ format: 'date-time', example: '2026-12-02T10:00:00.000Z' })
  expires_at!: string;
}

export class MembershipBusinessDto {
  @ApiProperty({ format: 'uuid', example: '3f2b8c1e-5d4a-4c1b-9e7f-2a6d8b0c4e11' })
  uuid!: string;

  @ApiProperty({ type: 'string', nullable: true, example: 'mama-put' })
  meta_key!: string | null;

  @ApiProperty({ type: 'string', nullable: true, example: 'Mama Put' })
  title_name!: string | null;
}

export class MembershipResponseDto {
  @ApiProperty({ format: 'uuid', example: '9b2f0c1e-7d4a-4c1b-9e7f-2a6d8b0c4e55' })
  uuid!: string;

  @ApiProperty({ format: 'uuid', example: '3f2b8c1e-5d4a-4c1b-9e7f-2a6d8b0c4e11' })
  business_uuid!: string;

  @ApiProperty({ type: MembershipBusinessDto })
  business!: MembershipBusinessDto;

  @ApiProperty({ enum: MEMBER_ROLES, example: 'staff' })
  role!: MemberRole;

  @ApiProperty({ enum: ['active'], example: 'active' })
  status!: MemberStatus;
}

export function toMemberResponse(row: BusinessMemberEntity): MemberResponseDto {
  return {
    uuid: row.uuid,
    email: row.email,
    role: row.role,
    status: row.status,
    user_uuid: row.userUuid,
    invited_at: row.invitedAt.toISOString(),
    expires_at: row.expiresAt.toISOString(),
  };
}
