import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
} from 'typeorm';

/** A device's push settings, one row per user and device. */
@Entity('notification_settings')
@Index('notification_settings_user_device_key', ['userUuid', 'deviceId'], { unique: true })
export class NotificationSettingEntity {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'PK_notification_settings' })
  uuid!: string;

  @Column({ name: 'user_uuid', type: 'uuid' })
  userUuid!: string;

  @Column({ name: 'device_id', type: 'varchar', length: 255 })
  deviceId!: string;

  @Column({ type: 'varchar', length: 64, nullable: true })
  platform!: string | null;

  @Column({ type: 'varchar', length: 255, nullable: true })
  label!: string | null;

  @Column({ name: 'enable_notification', type: 'boolean', default: true })
  enableNotification!: boolean;

  /** As the client sends it: an object keyed by provider or an array. */
  @Column({ type: 'jsonb', default: {} })
  providers!: Record<string, unknown> | unknown[];

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
