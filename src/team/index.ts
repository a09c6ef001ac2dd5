import { BusinessMemberEntity } from './business-member.entity';

export { TeamModule } from './team.module';
export { AccessPolicy } from './access-policy';
export type { RequireAccessOptions } from './access-policy';
export { BUSINESS_ACTIONS, ROLE_ACTIONS, roleAllows } from './access';
export type { BusinessAction, BusinessRole } from './access';
export { MembershipChanges } from './membership-changes';
export { BusinessMemberEntity };

/** The team module's tables, registered with the database by the composition root. */
export const TEAM_ENTITIES = [BusinessMemberEntity];
