/*
 * The guest-message module's front door: what other modules may use of it.
 */
import {
  GuestMessageConsentEntity,
  GuestMessageEntity,
  GuestMessageLimitNoticeEntity,
  GuestMessageStopEntity,
} from './entities';

export { MessagingModule } from './messaging.module';

/** The guest-message module's tables, registered with the database by the composition root. */
export const MESSAGING_ENTITIES = [
  GuestMessageEntity,
  GuestMessageConsentEntity,
  GuestMessageStopEntity,
  GuestMessageLimitNoticeEntity,
];
