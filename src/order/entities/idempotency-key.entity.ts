import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * An Idempotency-Key seen within 24 h, with the fingerprint of its body
 * and the first answer. The primary key is what makes concurrent requests with
 * one key create one order: the second insert waits for the first to commit.
 */
@Entity('idempotency_keys')
@Index('idempotency_keys_created_idx', ['createdAt'])
export class IdempotencyKeyEntity {
  /** The operation the key belongs to, e.g. `order.place`. */
  @PrimaryColumn({ type: 'varchar', length: 64, primaryKeyConstraintName: 'PK_idempotency_keys' })
  scope!: string;

  @PrimaryColumn({ type: 'varchar', length: 128, primaryKeyConstraintName: 'PK_idempotency_keys' })
  key!: string;

  /** sha256 of the canonical validated body. */
  @Column({ name: 'request_hash', type: 'varchar', length: 64 })
  requestHash!: string;

  @Column({ name: 'response_status', type: 'integer', nullable: true })
  responseStatus!: number | null;

  @Column({ name: 'response_body', type: 'jsonb', nullable: true })
  responseBody!: unknown;

  /** What the first request created (the order). */
  @Column({ name: 'resource_uuid', type: 'uuid', nullable: true })
  resourceUuid!: string | null;

  /** Taken from the service clock, so the 24 h window can be tested. */
  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
