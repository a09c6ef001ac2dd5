export {
  GUEST_MESSAGE_STATUSES,
  GuestMessageConsentEntity,
  GuestMessageEntity,
  GuestMessageLimitNoticeEntity,
  GuestMessageStopEntity,
} from './guest-message.entity';
export type { GuestMessageStatus } from './guest-message.entity';
