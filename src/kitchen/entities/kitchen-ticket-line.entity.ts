import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import type { LineStatus } from '../domain/ticket-status';
import { KitchenTicketEntity } from './kitchen-ticket.entity';

/** One order line as its station sees it, with the line's own progress. */
@Entity('kitchen_ticket_lines')
@Index('kitchen_ticket_lines_ticket_position_key', ['ticketUuid', 'position'], { unique: true })
export class KitchenTicketLineEntity {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'PK_kitchen_ticket_lines' })
  uuid!: string;

  @Column({ name: 'ticket_uuid', type: 'uuid' })
  ticketUuid!: string;

  @ManyToOne(() => KitchenTicketEntity, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'ticket_uuid', foreignKeyConstraintName: 'FK_kitchen_ticket_lines_ticket' })
  ticket?: KitchenTicketEntity;

  /** The order line's place in the cart. */
  @Column({ type: 'integer' })
  position!: number;

  @Column({ name: 'order_line_uuid', type: 'uuid' })
  orderLineUuid!: string;

  @Column({ name: 'item_uuid', type: 'uuid' })
  itemUuid!: string;

  @Column({ name: 'title_name', type: 'varchar', length: 255, nullable: true })
  titleName!: string | null;

  /** The chosen options as the order line keeps them. */
  @Column({ type: 'jsonb', default: [] })
  options!: Array<Record<string, unknown>>;

  @Column({ type: 'integer' })
  quantity!: number;

  @Column({ name: 'item_note', type: 'text', nullable: true })
  itemNote!: string | null;

  @Column({ type: 'jsonb', default: [] })
  allergens!: string[];

  @Column({ type: 'varchar', length: 16, default: 'queued' })
  status!: LineStatus;
}
