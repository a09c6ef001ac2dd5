import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
} from 'typeorm';
import type { OrderStatus, PaymentStatus } from '../domain/order-status';
import type { PaymentProcessor } from '../domain/payment-methods';

/**
 * A placed order (§5.1). `owner_uuid` is the business owner at placement,
 * kept on the row so the inbox and every ownership check are one indexed read.
 */
@Entity('orders')
@Index('orders_order_reference_key', ['orderReference'], { unique: true })
@Index('orders_owner_created_idx', ['ownerUuid', 'createdAt', 'uuid'])
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

  @Column({ name: 'payment_status', type: 'varchar', length: 16, default: 'unpaid' })
  paymentStatus!: PaymentStatus;

  @Column({ name: 'payment_processor', type: 'varchar', length: 32 })
  paymentProcessor!: PaymentProcessor;

  /** The computed total (D19), exact: numeric reads back as text. */
  @Column({ type: 'numeric', precision: 14, scale: 2 })
  amount!: string;

  /** The menu's `menu_base_wallet_ticker` at placement. */
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

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
