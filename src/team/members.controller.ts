import { Body, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { ApiParam, ApiTags } from '@nestjs/swagger';
import { Auth, AuthUser, CurrentUser } from '../auth/auth.decorator';
import { ApiEnvelope, ApiErrors } from '../http/api-docs';
import { ApiResult } from '../http/envelope';
import { Message } from '../http/envelope-routes';
import { SpaceController } from '../http/url-space';
import {
  AcceptInvitationDto,
  ChangeMemberRoleDto,
  InviteMemberDto,
  ListMembersQueryDto,
  MemberResponseDto,
  MembershipResponseDto,
} from './dto/member.dto';
import { MembersService } from './members.service';

/**
 * The people who work for a business. The owner invites by email with a
 * role (`manager` or `staff`); the invited person accepts with an account of
 * their own. A business the caller has no part in answers 404; a role that
 * may not do the action answers 403.
 */
@ApiTags('teams')
@SpaceController('core', 'businesses/:business_uuid/members')
@ApiParam({ name: 'business_uuid', format: 'uuid', description: 'The business.' })
export class MembersController {
  constructor(private readonly members: MembersService) {}

  /**
   * Invites someone to work for the business.
   *
   * @remarks Owner only. Mails an accept link carrying a token that works
   * once and for 7 days. The address is compared without regard to case: one
   * that already has an open invitation or a membership here is 409; the
   * owner's own address is 422; beyond 50 members and open invitations, 422.
   */
  @Post()
  @Auth()
  @ApiEnvelope(MemberResponseDto, { status: 201 })
  @ApiErrors(400, 403, 404, 409, 422)
  inviteMember(
    @CurrentUser() user: AuthUser,
    @Param('business_uuid') businessUuid: string,
    @Body() dto: InviteMemberDto,
  ): Promise<ApiResult<MemberResponseDto>> {
    return this.members.invite(user, businessUuid, dto);
  }

  /**
   * Lists the members and open invitations of the business.
   *
   * @remarks Owner and managers. Oldest first, paged. Invitations that ran
   * out are not listed.
   */
  @Get()
  @Auth()
  @ApiEnvelope(MemberResponseDto, { isArray: true, paged: true })
  @ApiErrors(400, 403, 404)
  listMembers(
    @CurrentUser() user: AuthUser,
    @Param('business_uuid') businessUuid: string,
    @Query() query: ListMembersQueryDto,
  ): Promise<ApiResult<MemberResponseDto[]>> {
    return this.members.list(user, businessUuid, query);
  }

  /**
   * Changes a member's (or an open invitation's) role.
   *
   * @remarks Owner only. Takes effect on the member's next request; their
   * open order streams re-check at once.
   */
  @Put(':member_uuid')
  @Auth()
  @ApiEnvelope(MemberResponseDto)
  @ApiErrors(400, 403, 404)
  changeMemberRole(
    @CurrentUser() user: AuthUser,
    @Param('business_uuid') businessUuid: string,
    @Param('member_uuid') memberUuid: string,
    @Body() dto: ChangeMemberRoleDto,
  ): Promise<ApiResult<MemberResponseDto>> {
    return this.members.changeRole(user, businessUuid, memberUuid, dto);
  }

  /**
   * Removes a member, withdraws an invitation, or leaves.
   *
   * @remarks The owner may remove anyone; a member may remove only
   * themself (leave). A withdrawn invitation's token stops working at once; a
   * removed member is refused from their next request, and their open order
   * streams close within 5 seconds.
   */
  @Delete(':member_uuid')
  @Auth()
  @ApiEnvelope(null)
  @ApiErrors(403, 404)
  removeMember(
    @CurrentUser() user: AuthUser,
    @Param('business_uuid') businessUuid: string,
    @Param('member_uuid') memberUuid: string,
  ): Promise<ApiResult<null>> {
    return this.members.remove(user, businessUuid, memberUuid);
  }
}

/** Invitations as the invited person sees them, and the businesses they work for. */
@ApiTags('teams')
@SpaceController('core')
export class MembershipsController {
  constructor(private readonly members: MembersService) {}

  /**
   * Accepts an invitation.
   *
   * @remarks The logged-in account's email must be the invited address (422
   * otherwise, and the token stays usable). An expired, used, withdrawn or
   * unknown token is 404.
   */
  @Post('invitations/accept')
  @Auth()
  @HttpCode(200)
  @ApiEnvelope(MembershipResponseDto)
  @ApiErrors(400, 404, 422)
  acceptInvitation(
    @CurrentUser() user: AuthUser,
    @Body() dto: AcceptInvitationDto,
  ): Promise<ApiResult<MembershipResponseDto>> {
    return this.members.accept(user, dto.token);
  }

  /**
   * Lists the businesses the caller works for.
   *
   * @remarks Each active membership with its business and role. The
   * businesses the caller owns are not listed here; list them with
   * `owned_by`.
   */
  @Get('memberships')
  @Auth()
  @Message('Memberships')
  @ApiEnvelope(MembershipResponseDto, { isArray: true })
  listMemberships(@CurrentUser() user: AuthUser): Promise<MembershipResponseDto[]> {
    return this.members.listMemberships(user);
  }
}
