/*
 * The account module's front door: what other modules may use of it.
 */
import { UserTokenEntity } from './user-token.entity';
import { UserEntity } from './user.entity';

export { AccountModule } from './account.module';
export { UserContacts } from './user-contacts';
export type { UserContact } from './user-contacts';
/** The users table, for other modules' typed reads of it. */
export type { UserEntity };

/** The account module's tables, registered with the database by the composition root. */
export const ACCOUNT_ENTITIES = [UserEntity, UserTokenEntity];
