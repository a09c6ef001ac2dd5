import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
} from 'typeorm';

/** `open` takes rounds; `settling` is split and takes none; `closed` is over. */
export const TAB_STATUSES = ['open', 'settling', 'closed'] as const;
export type TabStatus = (typeof TAB_STATUSES)[number];

/**
 * A table's tab: a party that orders in rounds (each an order of its own,
 * `orders.tab_uuid`) and pays at the end, whole or in shares. At most one
 * tab of a menu's table is not closed (the partial unique index), so two
 * first rounds at once open one tab.
 */
@Entity('tabs')
@Index('tabs_open_table_key', ['menuUuid', 'table'], {
  unique: true,
  where: `status <> 'closed'`,
})
@Index('tabs_business_opened_idx', ['businessUuid', 'openedAt'])
export class TabEntity {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'PK_tabs' })
  uuid!: string;

  @Column({ name: 'business_uuid', type: 'uuid' })
  businessUuid!: string;

  @Column({ name: 'menu_uuid', type: 'uuid' })
  menuUuid!: string;

  /** The business owner when the tab opened, as on an order. */
  @Column({ name: 'owner_uuid', type: 'uuid' })
  ownerUuid!: string;

  /** `customer_onpremise_location` of its rounds, as sent (`table_7`). */
  @Column({ name: 'table', type: 'varchar', length: 255 })
  table!: string;

  @Column({ type: 'varchar', length: 16, default: 'open' })
  status!: TabStatus;

  @Column({ type: 'varchar', length: 32, nullable: true })
  currency!: string | null;

  /** The member who opened it with a staff round; null when a guest did. */
  @Column({ name: 'opened_by', type: 'uuid', nullable: true })
  openedBy!: string | null;

  @CreateDateColumn({ name: 'opened_at', type: 'timestamptz' })
  openedAt!: Date;

  @Column({ name: 'closed_at', type: 'timestamptz', nullable: true })
  closedAt!: Date | null;

  /** The owner or manager who closed it with money due; null when it closed paid. */
  @Column({ name: 'closed_by', type: 'uuid', nullable: true })
  closedBy!: string | null;

  /** Their role then (`owner`, `manager`), or `system` when it closed paid. */
  @Column({ name: 'closed_by_role', type: 'varchar', length: 16, nullable: true })
  closedByRole!: string | null;

  /** Why it closed with money due, as written. */
  @Column({ name: 'close_reason', type: 'varchar', length: 500, nullable: true })
  closeReason!: string | null;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}

/** `unpaid` until its payments reach its amount; `replaced` when a new split took its place. */
export type TabShareStatus = 'unpaid' | 'paid' | 'replaced';

/** One line's part in a share split by items. */
export interface TabShareLine {
  order_uuid: string;
  line_uuid: string;
  quantity: number;
}

/** A part of a tab's bill, paid through payment records naming it (`payments.share_uuid`). */
@Entity('tab_shares')
@Index('tab_shares_tab_idx', ['tabUuid', 'position'])
export class TabShareEntity {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'PK_tab_shares' })
  uuid!: string;

  @Column({ name: 'tab_uuid', type: 'uuid' })
  tabUuid!: string;

  /** Its place among the tab's shares, from 1; a new split numbers on. */
  @Column({ type: 'int' })
  position!: number;

  /** What the share pays, exact. */
  @Column({ type: 'numeric', precision: 14, scale: 2 })
  amount!: string;

  @Column({ type: 'varchar', length: 16, default: 'unpaid' })
  status!: TabShareStatus;

  /** The split that made it: `equal`, `items` or `amount`. */
  @Column({ name: 'split_by', type: 'varchar', length: 16 })
  splitBy!: string;

  /** For a split by items, the lines (and quantities) it pays; null otherwise. */
  @Column({ type: 'jsonb', nullable: true })
  lines!: TabShareLine[] | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
