import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/** An entry of a user's inbox, such as a new order for an owner. */
@Entity('notifications')
@Index('notifications_user_created_idx', ['userUuid', 'createdAt', 'uuid'])
// Serves `meta.unread`; partial, so it lives in the migration only.
@Index('notifications_user_unread_idx', { synchronize: false })
export class NotificationEntity {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'PK_notifications' })
  uuid!: string;

  @Column({ name: 'user_uuid', type: 'uuid' })
  userUuid!: string;

  /** What happened, e.g. `order.created`. */
  @Column({ type: 'varchar', length: 64 })
  kind!: string;

  @Column({ type: 'varchar', length: 255 })
  title!: string;

  @Column({ type: 'text' })
  body!: string;

  @Column({ type: 'jsonb', default: {} })
  data!: Record<string, unknown>;

  @Column({ name: 'read_at', type: 'timestamptz', nullable: true })
  readAt!: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
