import { Module } from '@nestjs/common';
import { AccessPolicy } from './access-policy';
import { MembersController, MembershipsController } from './members.controller';
import { MembersService } from './members.service';
import { MembershipChanges } from './membership-changes';
import { TeamRepository } from './team.repository';

/**
 * The people who work for a business, and the access policy every module
 * asks before it reads or writes a business's records.
 */
@Module({
  controllers: [MembersController, MembershipsController],
  providers: [AccessPolicy, MembersService, MembershipChanges, TeamRepository],
  exports: [AccessPolicy, MembershipChanges],
})
export class TeamModule {}
