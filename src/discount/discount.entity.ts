import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  PrimaryColumn,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
} from 'typeorm';

export type DiscountKind = 'percent' | 'fixed';

/**
 * A discount code of one business. The code is stored upper-case and is
 * unique per business among every code it ever had, so a code deleted for
 * good is never reused.
 */
@Entity('discounts')
@Index('discounts_business_code_key', ['businessUuid', 'code'], { unique: true })
export class DiscountEntity {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'PK_discounts' })
  uuid!: string;

  @Column({ name: 'business_uuid', type: 'uuid' })
  businessUuid!: string;

  @Column({ type: 'varchar', length: 32 })
  code!: string;

  @Column({ type: 'varchar', length: 8 })
  kind!: DiscountKind;

  /** Exact decimal text: a percentage for `percent`, an amount for `fixed`. */
  @Column({ type: 'varchar', length: 20 })
  value!: string;

  @Column({
    name: 'minimum_order_amount',
    type: 'numeric',
    precision: 14,
    scale: 2,
    nullable: true,
  })
  minimumOrderAmount!: string | null;

  @Column({ name: 'starts_at', type: 'timestamptz', nullable: true })
  startsAt!: Date | null;

  @Column({ name: 'ends_at', type: 'timestamptz', nullable: true })
  endsAt!: Date | null;

  @Column({ name: 'max_redemptions', type: 'integer', nullable: true })
  maxRedemptions!: number | null;

  @Column({ name: 'max_redemptions_per_email', type: 'integer', nullable: true })
  maxRedemptionsPerEmail!: number | null;

  /** Only these menus; null for every menu of the business. */
  @Column({ name: 'menu_uuids', type: 'jsonb', nullable: true })
  menuUuids!: string[] | null;

  @Column({ type: 'boolean', default: true })
  enabled!: boolean;

  /** Set when the code was deleted: it is disabled for good. */
  @Column({ name: 'deleted_at', type: 'timestamptz', nullable: true })
  deletedAt!: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}

/**
 * One order's use of a code, keyed by the order: the order's email is kept
 * lower-case for the per-email limit. An order that ends rejected or
 * cancelled gives it back (the row is deleted).
 */
@Entity('discount_redemptions')
@Index('discount_redemptions_discount_email_idx', ['discountUuid', 'email'])
export class DiscountRedemptionEntity {
  @PrimaryColumn({
    name: 'order_uuid',
    type: 'uuid',
    primaryKeyConstraintName: 'PK_discount_redemptions',
  })
  orderUuid!: string;

  @Column({ name: 'discount_uuid', type: 'uuid' })
  discountUuid!: string;

  @Column({ type: 'varchar', length: 320 })
  email!: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}

export const DISCOUNT_ENTITIES = [DiscountEntity, DiscountRedemptionEntity];
