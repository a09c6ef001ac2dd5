import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import type { OutboxKind } from './outbox-lanes';

export type { OutboxKind } from './outbox-lanes';
export type OutboxStatus = 'pending' | 'sent' | 'failed';

/**
 * A side effect waiting to leave. Written in the same
 * transaction as the change that causes it; a worker delivers it after commit.
 */
@Entity('outbox')
@Index('outbox_lane_due_idx', { synchronize: false })
export class OutboxEntity {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'PK_outbox' })
  uuid!: string;

  @Column({ type: 'varchar', length: 32 })
  kind!: OutboxKind;

  /** For mail: { to, subject, text, html? }; for realtime: the event. */
  @Column({ type: 'jsonb' })
  payload!: Record<string, unknown>;

  /**
   * Who receives the row (a webhook endpoint's uuid, a message provider), or
   * null: a process has at most a few of one receiver's rows in flight.
   */
  @Column({ type: 'varchar', length: 200, nullable: true })
  receiver!: string | null;

  @Column({ type: 'varchar', length: 16, default: 'pending' })
  status!: OutboxStatus;

  @Column({ type: 'integer', default: 0 })
  attempts!: number;

  @Column({ name: 'available_at', type: 'timestamptz', default: () => 'now()' })
  availableAt!: Date;

  @Column({ name: 'last_error', type: 'text', nullable: true })
  lastError!: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'sent_at', type: 'timestamptz', nullable: true })
  sentAt!: Date | null;
}
