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

/**
 * One event for one endpoint, fixed when the change happened: its uuid is the
 * `webhook-id` of every attempt, and `body` the exact bytes every attempt sends.
 */
@Entity('webhook_events')
@Index('webhook_events_endpoint_idx', ['endpointUuid'])
export class WebhookEventEntity {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'PK_webhook_events' })
  uuid!: string;

  @Column({ name: 'endpoint_uuid', type: 'uuid' })
  endpointUuid!: string;

  @ManyToOne(() => WebhookEndpointEntity, { onDelete: 'CASCADE', nullable: false })
  @JoinColumn({ name: 'endpoint_uuid', foreignKeyConstraintName: 'FK_webhook_events_endpoint' })
  endpoint?: WebhookEndpointEntity;

  @Column({ type: 'varchar', length: 64 })
  type!: string;

  /** The JSON body as sent, kept as text so that every attempt sends the same bytes. */
  @Column({ type: 'text' })
  body!: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
