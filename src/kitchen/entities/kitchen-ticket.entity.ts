import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
} from 'typeorm';
import { OrderEntity } from '../../order';
import type { TicketKind, TicketStatus } from '../domain/ticket-status';

/**
 * What one station of a kitchen must make for one order (`kind: new`), or
 * stop making (`kind: void`, written when the order is cancelled). Written
 * in the transaction that accepts (or cancels) the order; one of each kind
 * per order and station, which the unique index holds however the
 * acceptance is replayed or raced.
 */
@Entity('kitchen_tickets')
@Index('kitchen_tickets_order_station_kind_key', ['orderUuid', 'station', 'kind'], {
  unique: true,
})
/** A business's tickets in the order they changed, for the list's `since` cursor. */
@Index('kitchen_tickets_business_version_key', ['businessUuid', 'version'], { unique: true })
@Index('kitchen_tickets_business_created_idx', ['businessUuid', 'createdAt', 'uuid'])
export class KitchenTicketEntity {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'PK_kitchen_tickets' })
  uuid!: string;

  @Column({ name: 'business_uuid', type: 'uuid' })
  businessUuid!: string;

  @Column({ name: 'order_uuid', type: 'uuid' })
  orderUuid!: string;

  @ManyToOne(() => OrderEntity, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'order_uuid', foreignKeyConstraintName: 'FK_kitchen_tickets_order' })
  order?: OrderEntity;

  @Column({ name: 'order_reference', type: 'varchar', length: 16 })
  orderReference!: string;

  /** The station's key. */
  @Column({ type: 'varchar', length: 32 })
  station!: string;

  @Column({ type: 'varchar', length: 8 })
  kind!: TicketKind;

  @Column({ name: 'fulfilment_type', type: 'varchar', length: 16 })
  fulfilmentType!: string;

  /** The dine-in location as the guest sent it; null for none. */
  @Column({ name: 'table_label', type: 'text', nullable: true })
  tableLabel!: string | null;

  @Column({ name: 'requested_time', type: 'timestamptz', nullable: true })
  requestedTime!: Date | null;

  @Column({ name: 'estimated_ready_at', type: 'timestamptz', nullable: true })
  estimatedReadyAt!: Date | null;

  @Column({ name: 'general_note', type: 'text', nullable: true })
  generalNote!: string | null;

  /** Its slowest line's status; `cancelled` for a `new` ticket of a cancelled order. */
  @Column({ type: 'varchar', length: 16 })
  status!: TicketStatus;

  /** Dockets served of it (text or bytes); from the second on they say REPRINT. */
  @Column({ name: 'printed_count', type: 'integer', default: 0 })
  printedCount!: number;

  /**
   * Grows with every change of the business's tickets; what the `since`
   * cursor counts. Given just before the commit of the change: null only
   * inside the transaction that writes the ticket, never once committed.
   */
  @Column({ type: 'bigint', nullable: true })
  version!: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
