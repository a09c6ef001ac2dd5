import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/**
 * Every provider event acted on (a webhook or a verify answer), recorded in
 * the transaction that acts on it. `(provider, event_key)` is unique, so the
 * same event delivered again is recognised and changes nothing.
 */
@Entity('payment_events')
@Index('payment_events_provider_key', ['provider', 'eventKey'], { unique: true })
@Index('payment_events_order_idx', ['orderUuid'])
export class PaymentEventEntity {
  @PrimaryGeneratedColumn('increment', {
    type: 'bigint',
    primaryKeyConstraintName: 'PK_payment_events',
  })
  id!: string;

  @Column({ type: 'varchar', length: 32 })
  provider!: string;

  @Column({ name: 'event_key', type: 'varchar', length: 200 })
  eventKey!: string;

  @Column({ name: 'event_type', type: 'varchar', length: 64 })
  eventType!: string;

  @Column({ type: 'varchar', length: 100 })
  reference!: string;

  /** The order of the payment; null for a payment of a tab's share. */
  @Column({ name: 'order_uuid', type: 'uuid', nullable: true })
  orderUuid!: string | null;

  /** The payment the event was about; null for events recorded before payments had rows. */
  @Column({ name: 'payment_uuid', type: 'uuid', nullable: true })
  paymentUuid!: string | null;

  /** What the event did to the order's payment: the new state, or `none`. */
  @Column({ type: 'varchar', length: 32 })
  outcome!: string;

  @Column({ type: 'jsonb' })
  detail!: Record<string, unknown>;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
