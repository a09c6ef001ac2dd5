import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { OrderEntity } from './order.entity';

/**
 * One line of an order with a snapshot of the item's title, chosen options and
 * unit price (with the options) at the moment of the order: later edits of the
 * item leave it unchanged.
 */
@Entity('order_lines')
@Index('order_lines_order_position_key', ['orderUuid', 'position'], { unique: true })
export class OrderLineEntity {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'PK_order_lines' })
  uuid!: string;

  @Column({ name: 'order_uuid', type: 'uuid' })
  orderUuid!: string;

  @ManyToOne(() => OrderEntity, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'order_uuid', foreignKeyConstraintName: 'FK_order_lines_order' })
  order?: OrderEntity;

  /** The line's place in the cart, from 0. */
  @Column({ type: 'integer' })
  position!: number;

  @Column({ name: 'item_uuid', type: 'uuid' })
  itemUuid!: string;

  @Column({ name: 'title_name', type: 'varchar', length: 255, nullable: true })
  titleName!: string | null;

  @Column({ type: 'text', nullable: true })
  category!: string | null;

  @Column({ name: 'unit_price_amount', type: 'numeric', precision: 14, scale: 2 })
  unitPriceAmount!: string;

  /** The chosen options with their titles and price deltas when the order was placed; [] for none. */
  @Column({ type: 'jsonb', default: [] })
  options!: Array<Record<string, unknown>>;

  @Column({ type: 'integer' })
  quantity!: number;

  /** Never above the order total, which is checked to fit numeric(14,2) before anything is stored. */
  @Column({ name: 'line_total', type: 'numeric', precision: 14, scale: 2 })
  lineTotal!: string;

  @Column({ name: 'item_note', type: 'text', nullable: true })
  itemNote!: string | null;

  /** The allergens of the item and its chosen options when the order was placed; [] for none. */
  @Column({ type: 'jsonb', default: [] })
  allergens!: string[];
}
