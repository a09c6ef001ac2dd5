import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
} from 'typeorm';
import type {
  PaymentChannel,
  PaymentFailure,
  PaymentMethod,
  PaymentRecordStatus,
} from '../domain/payment-state';

/**
 * One attempt to collect money for an order (or a share of a tab): a card
 * checkout, a USSD, mobile money or bank transfer charge, or money the team
 * records by hand. Written only by the payment module, under a row lock with
 * a state check, so it is paid once however many confirmations race.
 */
@Entity('payments')
@Index('payments_order_idx', ['orderUuid', 'createdAt'])
/** The payments of a tab's shares. */
@Index('payments_share_idx', ['shareUuid'], { where: 'share_uuid IS NOT NULL' })
@Index('payments_reference_key', ['reference'], { unique: true })
/** A business's paid payments, for its sales by payment channel. */
@Index('payments_business_paid_idx', ['businessUuid', 'orderUuid'], { where: `status = 'paid'` })
/** Pending charges the worker checks with the provider, soonest first. */
@Index('payments_check_due_idx', ['nextCheckAt'], { where: `status = 'pending'` })
export class PaymentEntity {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'PK_payments' })
  uuid!: string;

  /** The order this payment pays; null for a payment of a tab's share (`share_uuid`). */
  @Column({ name: 'order_uuid', type: 'uuid', nullable: true })
  orderUuid!: string | null;

  /** The share of a tab this payment pays; null for a whole order. */
  @Column({ name: 'share_uuid', type: 'uuid', nullable: true })
  shareUuid!: string | null;

  @Column({ name: 'business_uuid', type: 'uuid' })
  businessUuid!: string;

  @Column({ type: 'varchar', length: 32 })
  method!: PaymentMethod;

  @Column({ type: 'varchar', length: 16 })
  channel!: PaymentChannel;

  @Column({ type: 'varchar', length: 16, default: 'pending' })
  status!: PaymentRecordStatus;

  /** What this attempt asks for. */
  @Column({ type: 'numeric', precision: 14, scale: 2 })
  amount!: string;

  /** What came in, as the provider (or the team) reported it; 0 until paid. */
  @Column({ name: 'amount_paid', type: 'numeric', precision: 14, scale: 2, default: 0 })
  amountPaid!: string;

  /** A tip given with this payment (a tab's share), not counted toward what is due. */
  @Column({ name: 'tip_amount', type: 'numeric', precision: 14, scale: 2, default: 0 })
  tipAmount!: string;

  @Column({ type: 'varchar', length: 32, nullable: true })
  currency!: string | null;

  /** The provider's reference of the attempt, unique; null for money recorded by hand. */
  @Column({ type: 'varchar', length: 64, nullable: true })
  reference!: string | null;

  /** The provider's id of the paid transaction. */
  @Column({ name: 'transaction_id', type: 'varchar', length: 64, nullable: true })
  transactionId!: string | null;

  /** What the guest does next to pay (dial a code, approve on the phone, an OTP, a transfer). */
  @Column({ name: 'next_action', type: 'jsonb', nullable: true })
  nextAction!: Record<string, unknown> | null;

  /** A card checkout's page and access code. */
  @Column({ name: 'authorization_url', type: 'text', nullable: true })
  authorizationUrl!: string | null;

  @Column({ name: 'access_code', type: 'varchar', length: 128, nullable: true })
  accessCode!: string | null;

  /** Where the provider sends the guest back after a checkout. */
  @Column({ name: 'callback_url', type: 'text', nullable: true })
  callbackUrl!: string | null;

  /** For money paid offline: what the guest is told to do (the menu's bank transfer entry). */
  @Column({ type: 'jsonb', nullable: true })
  instructions!: Record<string, unknown> | null;

  /** Why the attempt did not succeed, in words; null otherwise. */
  @Column({ type: 'text', nullable: true })
  error!: string | null;

  @Column({ type: 'varchar', length: 16, nullable: true })
  failure!: PaymentFailure | null;

  @Column({ name: 'paid_at', type: 'timestamptz', nullable: true })
  paidAt!: Date | null;

  /** When the attempt lapses (Paystack's for a transfer, ten minutes for the other charges). */
  @Column({ name: 'expires_at', type: 'timestamptz', nullable: true })
  expiresAt!: Date | null;

  /** When the provider is next asked about a pending charge; null when nobody asks. */
  @Column({ name: 'next_check_at', type: 'timestamptz', nullable: true })
  nextCheckAt!: Date | null;

  /** The member who recorded it (money recorded by hand); null otherwise. */
  @Column({ name: 'recorded_by', type: 'uuid', nullable: true })
  recordedBy!: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
