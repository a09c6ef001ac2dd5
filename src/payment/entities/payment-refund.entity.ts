import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

export type RefundStatus = 'pending' | 'succeeded' | 'processed' | 'failed';

/**
 * One refund of a payment. A refund of an order that takes from several
 * payments is one refund row per payment. An online refund is `pending` while the provider
 * is being asked (a second one of the same order meanwhile is refused), then
 * `succeeded` (counted in the order's `amount_refunded`) or `failed`; the
 * provider's confirmation marks it `processed`.
 * Refunds made at the provider itself arrive by webhook and are recorded with
 * no `requested_by`.
 */
@Entity('payment_refunds')
@Index('payment_refunds_order_idx', ['orderUuid', 'createdAt'])
@Index('payment_refunds_payment_idx', ['paymentUuid'])
export class PaymentRefundEntity {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'PK_payment_refunds' })
  uuid!: string;

  @Column({ name: 'order_uuid', type: 'uuid' })
  orderUuid!: string;

  /** The payment this refund gives back (of its order's payments). */
  @Column({ name: 'payment_uuid', type: 'uuid' })
  paymentUuid!: string;

  @Column({ type: 'varchar', length: 32 })
  provider!: string;

  @Column({ type: 'numeric', precision: 14, scale: 2 })
  amount!: string;

  @Column({ type: 'text', nullable: true })
  reason!: string | null;

  @Column({ type: 'varchar', length: 16 })
  status!: RefundStatus;

  /** The provider's id of the refund, to recognise its confirmation. */
  @Column({ name: 'provider_refund_id', type: 'varchar', length: 100, nullable: true })
  providerRefundId!: string | null;

  @Column({ name: 'requested_by', type: 'uuid', nullable: true })
  requestedBy!: string | null;

  @Column({ type: 'text', nullable: true })
  error!: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
