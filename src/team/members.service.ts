import { createHash, randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { AuthUser } from '../auth/auth.decorator';
import { Clock } from '../common/clock';
import { AppConfig } from '../config/config';
import { InjectConfig } from '../config/config.module';
import { ApiError } from '../http/api-error';
import { ApiResult, pageMeta } from '../http/envelope';
import { OutboxService } from '../outbox/outbox.service';
import { AccessPolicy } from './access-policy';
import { BusinessMemberEntity } from './business-member.entity';
import {
  ChangeMemberRoleDto,
  InviteMemberDto,
  ListMembersQueryDto,
  MemberResponseDto,
  MembershipResponseDto,
  toMemberResponse,
} from './dto/member.dto';
import { acceptLink, invitationMail } from './invitation-mail';
import { MembershipChanges } from './membership-changes';
import { LockedBusiness, TeamRepository } from './team.repository';
import { isUuid } from '../common/uuid';

export const INVITATION_DAYS = 7;
export const MAX_MEMBERS_PER_BUSINESS = 50;
const DAY_MS = 24 * 60 * 60 * 1000;

// R48: invitations.
/** SHA-256 of an invitation token: the only form in which it is stored. */
export function hashInvitationToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/**
 * The people who work for a business: invitations by email, accepting
 * them, the list, role changes, removal and leaving. Who may do each is
 * asked of the access policy.
 */
@Injectable()
export class MembersService {
  private readonly businessType: string;

  constructor(
    private readonly dataSource: DataSource,
    private readonly access: AccessPolicy,
    private readonly team: TeamRepository,
    private readonly outbox: OutboxService,
    private readonly clock: Clock,
    private readonly changes: MembershipChanges,
    @InjectConfig() private readonly config: AppConfig,
  ) {
    this.businessType = `${config.namespace}_business`;
  }

  async invite(
    user: AuthUser,
    businessUuid: string,
    dto: InviteMemberDto,
  ): Promise<ApiResult<MemberResponseDto>> {
    await this.access.requireAccess(user, 'members.manage', businessUuid, {
      noPart: 'not_found',
      message: 'Business not found.',
    });
    const email = dto.email.trim().toLowerCase();
    return this.dataSource.transaction(async (manager) => {
      // The business row is locked so that concurrent invitations count one after another.
      const business = await this.lockBusiness(manager, businessUuid);
      const ownerEmail = await this.team.emailOf(manager, business.ownedBy);
      if (ownerEmail !== undefined && ownerEmail.toLowerCase() === email) {
        throw ApiError.unprocessable('The owner cannot invite themself.', [
          { field: 'email', message: 'this is the address of the business owner' },
        ]);
      }
      const now = this.clock.now();
      // An invitation that ran out is no longer open: it neither blocks nor counts.
      await this.team.deleteLapsedInvitations(manager, business.uuid, now);
      const counted = await this.team.countMembers(manager, business.uuid);
      if (counted >= MAX_MEMBERS_PER_BUSINESS) {
        throw ApiError.unprocessable(
          `A business has at most ${MAX_MEMBERS_PER_BUSINESS} members and open invitations.`,
          [{ field: 'email', message: `the business already has ${counted}` }],
        );
      }
      const token = randomBytes(32).toString('base64url');
      const row = await this.team.insertInvitation(manager, {
        businessUuid: business.uuid,
        email,
        role: dto.role,
        tokenHash: hashInvitationToken(token),
        invitedBy: user.uuid,
        expiresAt: new Date(now.getTime() + INVITATION_DAYS * DAY_MS),
      });
      if (!row) throw this.duplicate();
      await this.outbox.enqueueMail(
        manager,
        invitationMail({
          to: email,
          businessTitle: business.titleName ?? business.metaKey ?? 'a business',
          role: dto.role,
          link: acceptLink(this.config.frontUrl, token),
          token,
          days: INVITATION_DAYS,
        }),
      );
      return new ApiResult(toMemberResponse(row), 'Invitation sent', undefined, 201);
    });
  }

  async list(
    user: AuthUser,
    businessUuid: string,
    query: ListMembersQueryDto,
  ): Promise<ApiResult<MemberResponseDto[]>> {
    await this.access.requireAccess(user, 'members.read', businessUuid, {
      noPart: 'not_found',
      message: 'Business not found.',
    });
    const page = query.page ?? 1;
    const perPage = query.per_page ?? MAX_MEMBERS_PER_BUSINESS;
    const [rows, total] = await this.team.pageOfMembers(
      businessUuid.toLowerCase(),
      this.clock.now(),
      page,
      perPage,
    );
    return new ApiResult(
      rows.map(toMemberResponse),
      'Members and open invitations',
      pageMeta(page, perPage, total),
    );
  }

  async changeRole(
    user: AuthUser,
    businessUuid: string,
    memberUuid: string,
    dto: ChangeMemberRoleDto,
  ): Promise<ApiResult<MemberResponseDto>> {
    await this.access.requireAccess(user, 'members.manage', businessUuid, {
      noPart: 'not_found',
      message: 'Business not found.',
    });
    const row = await this.findMember(businessUuid, memberUuid);
    await this.team.setRole(row.uuid, dto.role);
    await this.announce(row.userUuid);
    return new ApiResult(toMemberResponse({ ...row, role: dto.role }), 'Role changed');
  }

  /** The owner removes a member or withdraws an invitation; a member may remove themself (leave). */
  async remove(user: AuthUser, businessUuid: string, memberUuid: string): Promise<ApiResult<null>> {
    const role = await this.access.roleOn(user, businessUuid);
    if (role === undefined) throw ApiError.notFound('Business not found.');
    const row = await this.findMember(businessUuid, memberUuid);
    const leaving = row.userUuid !== null && row.userUuid === user.uuid;
    if (!leaving) this.access.check(role, 'members.manage');
    await this.team.deleteMember(row.uuid);
    await this.announce(row.userUuid);
    return new ApiResult(
      null,
      row.status === 'invited'
        ? 'Invitation withdrawn'
        : leaving
          ? 'You left the business'
          : 'Member removed',
    );
  }

  /** The invited account takes the invitation: the membership becomes active. */
  async accept(user: AuthUser, token: string): Promise<ApiResult<MembershipResponseDto>> {
    const gone = () => ApiError.notFound('The invitation does not exist, has expired or was used.');
    return this.dataSource.transaction(async (manager) => {
      const row = await this.team.lockOpenInvitation(manager, hashInvitationToken(token));
      if (!row || row.expiresAt.getTime() <= this.clock.now().getTime()) throw gone();
      const callerEmail = await this.team.emailOf(manager, user.uuid);
      if (callerEmail === undefined || callerEmail.toLowerCase() !== row.email) {
        throw ApiError.unprocessable(
          'This invitation was sent to another email address; log in with that account to accept it.',
          [{ field: 'token', message: 'the invitation is for another email address' }],
        );
      }
      await this.team.activate(manager, row.uuid, user.uuid, this.clock.now());
      const [membership] = await this.memberships(manager, user.uuid, row.uuid);
      return new ApiResult(membership, 'Invitation accepted');
    });
  }

  /** The businesses the caller works for, with their role on each. */
  async listMemberships(user: AuthUser): Promise<MembershipResponseDto[]> {
    return this.memberships(this.dataSource.manager, user.uuid);
  }

  private async memberships(
    manager: EntityManager,
    userUuid: string,
    memberUuid?: string,
  ): Promise<MembershipResponseDto[]> {
    const rows = await this.team.memberships(manager, userUuid, this.businessType, memberUuid);
    return rows.map((row) => ({
      uuid: row.uuid,
      business_uuid: row.businessUuid,
      business: { uuid: row.businessUuid, meta_key: row.metaKey, title_name: row.titleName },
      role: row.role,
      status: 'active',
    }));
  }

  private async lockBusiness(
    manager: EntityManager,
    businessUuid: string,
  ): Promise<LockedBusiness> {
    const business = await this.team.lockBusiness(
      manager,
      businessUuid.toLowerCase(),
      this.businessType,
    );
    if (!business) throw ApiError.notFound('Business not found.');
    return business;
  }

  private async findMember(
    businessUuid: string,
    memberUuid: string,
  ): Promise<BusinessMemberEntity> {
    const row = isUuid(memberUuid)
      ? await this.team.findMember(businessUuid.toLowerCase(), memberUuid.toLowerCase())
      : null;
    if (!row) throw ApiError.notFound('Member not found.');
    return row;
  }

  private duplicate(): ApiError {
    return ApiError.conflict(
      'This address already has an open invitation or a membership on this business.',
      [{ field: 'email', message: 'already invited or a member' }],
    );
  }

  /** Tells every process that this user's access changed, so their open streams re-check now. */
  private async announce(userUuid: string | null): Promise<void> {
    if (userUuid) await this.changes.announce(userUuid);
  }
}
