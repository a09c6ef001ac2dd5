import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** One fixed window of one rate-limited subject, shared by every replica. */
@Entity('rate_limit_counters')
@Index('rate_limit_counters_expires_idx', ['expiresAt'])
export class RateLimitCounterEntity {
  @PrimaryColumn({
    type: 'varchar',
    length: 64,
    primaryKeyConstraintName: 'PK_rate_limit_counters',
  })
  bucket!: string;

  /** sha256 (hex) of the key: an IP address or an email, never stored in clear. */
  @PrimaryColumn({
    type: 'varchar',
    length: 64,
    primaryKeyConstraintName: 'PK_rate_limit_counters',
  })
  subject!: string;

  @PrimaryColumn({
    name: 'window_start',
    type: 'timestamptz',
    primaryKeyConstraintName: 'PK_rate_limit_counters',
  })
  windowStart!: Date;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt!: Date;

  @Column({ type: 'integer', default: 1 })
  hits!: number;
}
