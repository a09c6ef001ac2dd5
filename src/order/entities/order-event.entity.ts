import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
} from 'typeorm';
import { OrderEntity } from './order.entity';

/**
 * `payment` entries hold values of the payment's state; `payment_status`
 * remains on entries written before payments were collected.
 */
export type OrderEventField =
  'status' | 'payment' | 'payment_status' | 'owner_note' | 'estimated_ready_at';

/**
 * Who made a change: the business owner or a member (by their role on the
 * business), the guest, the payment provider, or the service.
 */
export type OrderActor = 'owner' | 'manager' | 'staff' | 'guest' | 'provider' | 'system';

/**
 * The history of an order: one row per changed field, with who made
 * the change (null: the guest who placed it) and when. Ordered by `id`.
 */
@Entity('order_events')
@Index('order_events_order_idx', ['orderUuid', 'id'])
export class OrderEventEntity {
  @PrimaryGeneratedColumn('increment', {
    type: 'bigint',
    primaryKeyConstraintName: 'PK_order_events',
  })
  id!: string;

  @Column({ name: 'order_uuid', type: 'uuid' })
  orderUuid!: string;

  @ManyToOne(() => OrderEntity, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'order_uuid', foreignKeyConstraintName: 'FK_order_events_order' })
  order?: OrderEntity;

  @Column({ type: 'varchar', length: 32 })
  field!: OrderEventField;

  @Column({ name: 'from_value', type: 'text', nullable: true })
  fromValue!: string | null;

  @Column({ name: 'to_value', type: 'text', nullable: true })
  toValue!: string | null;

  @Column({ name: 'actor_uuid', type: 'uuid', nullable: true })
  actorUuid!: string | null;

  @Column({ type: 'varchar', length: 16 })
  actor!: OrderActor;

  /** Why the service made the change (`not_accepted_in_time`); null for a person's change. */
  @Column({ type: 'varchar', length: 64, nullable: true })
  reason!: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
