import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
} from 'typeorm';
import type { OrderStatus } from '../domain/order-status';
import type { PaymentProcessor } from '../../payment';
import type { FulfilmentType } from '../domain/fulfilment-type';
import type { PaymentState, PaymentStatus } from '../../payment';

/** Where an order came from: a guest's own (`online`) or taken by the team. */
export const ORDER_CHANNELS = ['online', 'phone', 'walk_in', 'waiter'] as const;
export type OrderChannel = (typeof ORDER_CHANNELS)[number];
/** The channels of an order the team takes. */
export const STAFF_CHANNELS = ['phone', 'walk_in', 'waiter'] as const;
export type StaffChannel = (typeof STAFF_CHANNELS)[number];

/**
 * A placed order. `owner_uuid` is the business owner at placement,
 * kept on the row so the inbox and every ownership check are one indexed read.
 */
@Entity('orders')
@Index('orders_order_reference_key', ['orderReference'], { unique: true })
@Index('orders_owner_created_idx', ['ownerUuid', 'createdAt', 'uuid'])
/** One business's orders over a period, for its reports and CSV export. */
@Index('orders_business_created_idx', ['businessUuid', 'createdAt', 'uuid'])
/** The rounds of a table's tab. */
@Index('orders_tab_idx', ['tabUuid'], { where: 'tab_uuid IS NOT NULL' })
export class OrderEntity {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'PK_orders' })
  uuid!: string;

  @Column({ name: 'order_reference', type: 'varchar', length: 16 })
  orderReference!: string;

  @Column({ name: 'menu_uuid', type: 'uuid' })
  menuUuid!: string;

  @Column({ name: 'business_uuid', type: 'uuid' })
  businessUuid!: string;

  @Column({ name: 'owner_uuid', type: 'uuid' })
  ownerUuid!: string;

  @Column({ type: 'varchar', length: 32, default: 'pending' })
  status!: OrderStatus;

  /** `payment_state` in fewer words (see the read model below). */
  @Column({ name: 'payment_status', type: 'varchar', length: 24, default: 'unpaid' })
  paymentStatus!: PaymentStatus;

  @Column({ name: 'payment_processor', type: 'varchar', length: 32 })
  paymentProcessor!: PaymentProcessor;

  /** The total the server computed, exact: numeric reads back as text. */
  @Column({ type: 'numeric', precision: 14, scale: 2 })
  amount!: string;

  /** The menu's ISO 4217 code at placement, else its `menu_base_wallet_ticker` as stored. */
  @Column({ type: 'varchar', length: 32, nullable: true })
  currency!: string | null;

  @Column({ name: 'customer_email_address', type: 'varchar', length: 320 })
  customerEmailAddress!: string;

  @Column({ name: 'customer_phone_number', type: 'varchar', length: 32, nullable: true })
  customerPhoneNumber!: string | null;

  @Column({ name: 'customer_requested_order_email_copy', type: 'boolean', default: false })
  customerRequestedOrderEmailCopy!: boolean;

  @Column({ name: 'general_note', type: 'text', nullable: true })
  generalNote!: string | null;

  @Column({ name: 'owner_note', type: 'text', nullable: true })
  ownerNote!: string | null;

  @Column({ name: 'delivery_data', type: 'jsonb', nullable: true })
  deliveryData!: Record<string, unknown> | null;

  @Column({ name: 'onpremise_data', type: 'jsonb', nullable: true })
  onpremiseData!: Record<string, unknown> | null;

  /**
   * The read model of the order's payments, kept by the order module in the
   * transaction of every payment change: the state they add up to
   * (`payment.status` of an answer), and what came in and went back.
   */
  @Column({ name: 'payment_state', type: 'varchar', length: 24, default: 'unpaid' })
  paymentState!: PaymentState;

  @Column({ name: 'amount_paid', type: 'numeric', precision: 14, scale: 2, default: 0 })
  amountPaid!: string;

  @Column({ name: 'amount_refunded', type: 'numeric', precision: 14, scale: 2, default: 0 })
  amountRefunded!: string;

  /** How the order is handed over: `dine_in`, `pickup` or `delivery`. */
  @Column({ name: 'fulfilment_type', type: 'varchar', length: 16, default: 'pickup' })
  fulfilmentType!: FulfilmentType;

  /** For an order for later, the slot it was placed for; null for an order for now. */
  @Column({ name: 'requested_time', type: 'timestamptz', nullable: true })
  requestedTime!: Date | null;

  /** When the order should be ready, set on acceptance or by the business. */
  @Column({ name: 'estimated_ready_at', type: 'timestamptz', nullable: true })
  estimatedReadyAt!: Date | null;

  /** The delivery zone that priced the order, as it was at placement; null without zones. */
  @Column({ name: 'delivery_zone', type: 'jsonb', nullable: true })
  deliveryZone!: { key: string; title: string } | null;

  /** The zone's minutes from ready to delivered; null when it names none. */
  @Column({ name: 'delivery_eta_minutes', type: 'int', nullable: true })
  deliveryEtaMinutes!: number | null;

  /** The lines other than the delivery line, after options, before discounts. */
  @Column({ name: 'items_subtotal', type: 'numeric', precision: 14, scale: 2, default: 0 })
  itemsSubtotal!: string;

  @Column({ name: 'delivery_fee', type: 'numeric', precision: 14, scale: 2, default: 0 })
  deliveryFee!: string;

  @Column({ type: 'numeric', precision: 14, scale: 2, default: 0 })
  discount!: string;

  /** The discount code applied, as the business wrote it; null for none. */
  @Column({ name: 'discount_code', type: 'varchar', length: 32, nullable: true })
  discountCode!: string | null;

  @Column({ name: 'discount_uuid', type: 'uuid', nullable: true })
  discountUuid!: string | null;

  @Column({ name: 'service_charge', type: 'numeric', precision: 14, scale: 2, default: 0 })
  serviceCharge!: string;

  @Column({ type: 'numeric', precision: 14, scale: 2, default: 0 })
  tax!: string;

  /** Whether the tax is included in the prices (and so not added to the total). */
  @Column({ name: 'tax_inclusive', type: 'boolean', default: false })
  taxInclusive!: boolean;

  @Column({ type: 'numeric', precision: 14, scale: 2, default: 0 })
  tip!: string;

  /** The tax and service charge settings used at placement; null when none applied. */
  @Column({ name: 'pricing_rates', type: 'jsonb', nullable: true })
  pricingRates!: Record<string, unknown> | null;

  /** The language the order was placed in (BCP 47), among the menu's; null for a menu without languages. */
  @Column({ type: 'varchar', length: 35, nullable: true })
  language!: string | null;

  /** Where the order came from: `online` (a guest's), or `phone`, `walk_in`, `waiter` (taken by staff). */
  @Column({ type: 'varchar', length: 16, default: 'online' })
  channel!: OrderChannel;

  /** The owner or team member who took the order; null for a guest's. */
  @Column({ name: 'created_by', type: 'uuid', nullable: true })
  createdBy!: string | null;

  /** The table's tab this order is a round of; null for an order paid on its own. */
  @Column({ name: 'tab_uuid', type: 'uuid', nullable: true })
  tabUuid!: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
