import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  PrimaryColumn,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
} from 'typeorm';

/** Where a guest message stands: waiting in the outbox, with the provider, or never sent. */
export const GUEST_MESSAGE_STATUSES = [
  'queued',
  'sent',
  'delivered',
  'read',
  'failed',
  'skipped_limit',
  'stopped',
] as const;
export type GuestMessageStatus = (typeof GUEST_MESSAGE_STATUSES)[number];

/**
 * One message to a guest about one event of one order, on one channel: the
 * owner's message log. `(order_uuid, event, channel)` is unique, so an event
 * gives at most one message per channel however many processes see it, and
 * the fallback on the business's next channel at most one more.
 */
@Entity('guest_messages')
@Index('guest_messages_order_event_channel', ['orderUuid', 'event', 'channel'], { unique: true })
@Index('guest_messages_business_created_idx', ['businessUuid', 'createdAt'])
@Index('guest_messages_provider_id_idx', ['providerMessageId'])
export class GuestMessageEntity {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'PK_guest_messages' })
  uuid!: string;

  @Column({ name: 'business_uuid', type: 'uuid' })
  businessUuid!: string;

  @Column({ name: 'order_uuid', type: 'uuid' })
  orderUuid!: string;

  /** `accepted`, `ready`, `out_for_delivery` or `rejected`. */
  @Column({ type: 'varchar', length: 32 })
  event!: string;

  /** `whatsapp` or `sms`. */
  @Column({ type: 'varchar', length: 16 })
  channel!: string;

  /** The guest's number in E.164; answered masked, logged masked. */
  @Column({ type: 'varchar', length: 32 })
  phone!: string;

  /** The template's language: `en` or `fr`. */
  @Column({ type: 'varchar', length: 8 })
  language!: string;

  /** The facts of the message, in the order of the template's body parameters. */
  @Column({ type: 'jsonb' })
  parameters!: string[];

  @Column({ type: 'varchar', length: 16 })
  status!: GuestMessageStatus;

  /** The provider that took it (`whatsapp`, `termii`, `twilio`, `log`); null before. */
  @Column({ type: 'varchar', length: 16, nullable: true })
  provider!: string | null;

  @Column({ name: 'provider_message_id', type: 'varchar', length: 128, nullable: true })
  providerMessageId!: string | null;

  @Column({ type: 'text', nullable: true })
  error!: string | null;

  /** Sent on the business's next channel after the consented one failed for good. */
  @Column({ type: 'boolean', default: false })
  fallback!: boolean;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}

/** A guest's opt-in at placement: the channel they prefer, their number, and when. */
@Entity('guest_message_consents')
export class GuestMessageConsentEntity {
  @PrimaryColumn({
    name: 'order_uuid',
    type: 'uuid',
    primaryKeyConstraintName: 'PK_guest_message_consents',
  })
  orderUuid!: string;

  @Column({ name: 'business_uuid', type: 'uuid' })
  businessUuid!: string;

  @Column({ type: 'varchar', length: 16 })
  channel!: string;

  @Column({ type: 'varchar', length: 32 })
  phone!: string;

  @Column({ name: 'consented_at', type: 'timestamptz' })
  consentedAt!: Date;
}

/** A number that asked a business for no more messages, for good. */
@Entity('guest_message_stops')
export class GuestMessageStopEntity {
  @PrimaryColumn({
    name: 'business_uuid',
    type: 'uuid',
    primaryKeyConstraintName: 'PK_guest_message_stops',
  })
  businessUuid!: string;

  @PrimaryColumn({
    type: 'varchar',
    length: 32,
    primaryKeyConstraintName: 'PK_guest_message_stops',
  })
  phone!: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}

/** The month (`YYYY-MM`, the business's time) whose limit its owner was told of: once a month. */
@Entity('guest_message_limit_notices')
export class GuestMessageLimitNoticeEntity {
  @PrimaryColumn({
    name: 'business_uuid',
    type: 'uuid',
    primaryKeyConstraintName: 'PK_guest_message_limit_notices',
  })
  businessUuid!: string;

  @PrimaryColumn({
    type: 'varchar',
    length: 7,
    primaryKeyConstraintName: 'PK_guest_message_limit_notices',
  })
  month!: string;
}
