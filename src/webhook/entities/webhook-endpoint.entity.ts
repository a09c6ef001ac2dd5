import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
} from 'typeorm';

/**
 * A URL where an owner wants order events delivered. The signing secret is
 * kept encrypted (it must be read back to sign, so a hash will not do).
 */
@Entity('webhook_endpoints')
@Index('webhook_endpoints_owner_created_idx', ['ownerUuid', 'createdAt', 'uuid'])
export class WebhookEndpointEntity {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'PK_webhook_endpoints' })
  uuid!: string;

  @Column({ name: 'owner_uuid', type: 'uuid' })
  ownerUuid!: string;

  /** Only this business's orders; null for all of the owner's businesses. */
  @Column({ name: 'business_uuid', type: 'uuid', nullable: true })
  businessUuid!: string | null;

  @Column({ type: 'text' })
  url!: string;

  @Column({ type: 'varchar', length: 500, nullable: true })
  description!: string | null;

  /** The event types wanted, e.g. `["order.created"]`. */
  @Column({ type: 'jsonb' })
  events!: string[];

  /** `v1.<iv>.<tag>.<ciphertext>`, base64url parts, AES-256-GCM. */
  @Column({ name: 'secret_ciphertext', type: 'text' })
  secretCiphertext!: string;

  @Column({ type: 'boolean', default: true })
  enabled!: boolean;

  /** Deliveries that ended failed in a row; reset by any success. */
  @Column({ name: 'consecutive_failures', type: 'integer', default: 0 })
  consecutiveFailures!: number;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
