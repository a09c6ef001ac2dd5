import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
} from 'typeorm';
import { UserEntity } from './user.entity';

export const TOKEN_PURPOSES = ['reset_password', 'change_password', 'verify_email'] as const;
export type TokenPurpose = (typeof TOKEN_PURPOSES)[number];

/**
 * The emailed one-time code of one purpose for one user. One row per
 * (user, purpose): issuing a new code replaces the row, which voids the old
 * code. Only a keyed sha256 of the code is stored.
 */
@Entity('user_tokens')
@Index('user_tokens_user_purpose_key', ['userUuid', 'purpose'], { unique: true })
export class UserTokenEntity {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'PK_user_tokens' })
  uuid!: string;

  @Column({ name: 'user_uuid', type: 'uuid' })
  userUuid!: string;

  @ManyToOne(() => UserEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_uuid', foreignKeyConstraintName: 'FK_user_tokens_user' })
  user?: UserEntity;

  @Column({ type: 'varchar', length: 32 })
  purpose!: TokenPurpose;

  /** HMAC-SHA256 (hex) of the code, bound to the user and purpose. */
  @Column({ name: 'token_hash', type: 'varchar', length: 64 })
  tokenHash!: string;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt!: Date;

  /** Tries spent on this code, the successful one included; five and it is dead. */
  @Column({ type: 'integer', default: 0 })
  attempts!: number;

  @Column({ name: 'used_at', type: 'timestamptz', nullable: true })
  usedAt!: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
