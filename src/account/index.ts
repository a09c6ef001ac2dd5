/*
 * The account module's front door: what other modules may use of it.
 */
export { AccountModule } from './account.module';
export { UserContacts } from './user-contacts';
export type { UserContact } from './user-contacts';
