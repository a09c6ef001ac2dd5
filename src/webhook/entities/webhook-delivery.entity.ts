import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
} from 'typeorm';
import { WebhookEndpointEntity } from './webhook-endpoint.entity';
import { WebhookEventEntity } from './webhook-event.entity';

export type WebhookDeliveryStatus = 'pending' | 'succeeded' | 'failed';

/** One attempt to deliver an event: the delivery log has one row per attempt. */
@Entity('webhook_deliveries')
@Index('webhook_deliveries_endpoint_created_idx', ['endpointUuid', 'createdAt', 'uuid'])
@Index('webhook_deliveries_event_attempt_key', ['eventUuid', 'attempt'], { unique: true })
export class WebhookDeliveryEntity {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'PK_webhook_deliveries' })
  uuid!: string;

  @Column({ name: 'event_uuid', type: 'uuid' })
  eventUuid!: string;

  @ManyToOne(() => WebhookEventEntity, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'event_uuid', foreignKeyConstraintName: 'FK_webhook_deliveries_event' })
  event?: WebhookEventEntity;

  @Column({ name: 'endpoint_uuid', type: 'uuid' })
  endpointUuid!: string;

  @ManyToOne(() => WebhookEndpointEntity, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({
    name: 'endpoint_uuid',
    foreignKeyConstraintName: 'FK_webhook_deliveries_endpoint',
  })
  endpoint?: WebhookEndpointEntity;

  /** 1 for the first attempt of the event, then counting up (retries and redeliveries). */
  @Column({ type: 'integer' })
  attempt!: number;

  @Column({ type: 'varchar', length: 16, default: 'pending' })
  status!: WebhookDeliveryStatus;

  @Column({ name: 'response_status', type: 'integer', nullable: true })
  responseStatus!: number | null;

  /** Why the attempt failed, or the start of the receiver's answer (at most 1 KB). */
  @Column({ type: 'text', nullable: true })
  error!: string | null;

  @Column({ name: 'response_body', type: 'text', nullable: true })
  responseBody!: string | null;

  @Column({ name: 'duration_ms', type: 'integer', nullable: true })
  durationMs!: number | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  /** Pending: when it is due; failed: when the next attempt is due (null when none follows). */
  @Column({ name: 'next_attempt_at', type: 'timestamptz', nullable: true })
  nextAttemptAt!: Date | null;
}
