import { Column, Entity, Index, PrimaryColumn, PrimaryGeneratedColumn } from 'typeorm';

/**
 * The portions of one stocked item in one period: a local day of the
 * business (`YYYY-MM-DD`) for `daily` stock, `count` for stock counted until
 * changed. The item's `extra_data.stock.quantity` plus `adjusted` is what
 * the period has; `taken` is what orders hold. A row is made by the first
 * take or adjustment of its period.
 */
@Entity('stock_counts')
export class StockCountEntity {
  @PrimaryColumn({ name: 'item_uuid', type: 'uuid', primaryKeyConstraintName: 'PK_stock_counts' })
  itemUuid!: string;

  @PrimaryColumn({ type: 'varchar', length: 10, primaryKeyConstraintName: 'PK_stock_counts' })
  period!: string;

  @Column({ name: 'business_uuid', type: 'uuid' })
  businessUuid!: string;

  /** Portions held by orders; never below 0. */
  @Column({ type: 'integer', default: 0 })
  taken!: number;

  /** The sum of the period's adjustments (restocks, recounts, waste, corrections). */
  @Column({ type: 'integer', default: 0 })
  adjusted!: number;
}

/** Every change of a stocked item's portions: an order's take and return, and each adjustment. */
@Entity('stock_ledger')
@Index('stock_ledger_item_at_idx', ['itemUuid', 'at'])
@Index('stock_ledger_order_idx', ['orderUuid'])
export class StockLedgerEntity {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'PK_stock_ledger' })
  uuid!: string;

  @Column({ name: 'business_uuid', type: 'uuid' })
  businessUuid!: string;

  @Column({ name: 'item_uuid', type: 'uuid' })
  itemUuid!: string;

  @Column({ type: 'varchar', length: 10 })
  period!: string;

  @Column({ type: 'timestamptz' })
  at!: Date;

  /** Portions added (positive) or taken away (negative). */
  @Column({ type: 'integer' })
  delta!: number;

  /** `order`, `order_returned`, `restock`, `recount`, `waste` or `correction`. */
  @Column({ type: 'varchar', length: 16 })
  reason!: string;

  @Column({ type: 'varchar', length: 500, nullable: true })
  note!: string | null;

  @Column({ name: 'order_uuid', type: 'uuid', nullable: true })
  orderUuid!: string | null;

  /** The member who made the change; null for a guest or the service. */
  @Column({ name: 'by_uuid', type: 'uuid', nullable: true })
  byUuid!: string | null;

  /** `owner`, `manager`, `staff`, `guest`, `provider` or `system`, as in an order's history. */
  @Column({ type: 'varchar', length: 16 })
  actor!: string;
}

export const STOCK_ENTITIES = [StockCountEntity, StockLedgerEntity];
