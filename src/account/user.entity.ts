import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
} from 'typeorm';

/** Free-form data a client keeps with the user: a JSON object or an array, stored as sent. */
export type MetaData = Record<string, unknown> | unknown[];

@Entity('users')
// Functional unique indexes (lower(...)) live in the migration; TypeORM must leave them alone.
@Index('users_email_lower_key', { synchronize: false })
@Index('users_username_lower_key', { synchronize: false })
export class UserEntity {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'PK_users' })
  uuid!: string;

  @Column({ type: 'varchar', length: 320 })
  email!: string;

  @Column({ type: 'varchar', length: 200 })
  name!: string;

  @Column({ type: 'varchar', length: 100 })
  username!: string;

  @Column({ name: 'password_hash', type: 'text' })
  passwordHash!: string;

  @Column({ name: 'meta_data', type: 'jsonb', default: {} })
  metaData!: MetaData;

  @Column({ name: 'email_verified_at', type: 'timestamptz', nullable: true })
  emailVerifiedAt!: Date | null;

  /** Raised by a password reset or change; JWTs carry it and die when it moves. */
  @Column({ name: 'token_version', type: 'integer', default: 0 })
  tokenVersion!: number;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
