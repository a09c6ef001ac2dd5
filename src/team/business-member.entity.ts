import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
} from 'typeorm';

export type MemberRole = 'manager' | 'staff';
export type MemberStatus = 'invited' | 'active';

/**
 * One person who works for a business: an open invitation (`invited`, with
 * the hash of its emailed token) or a membership (`active`, with the account
 * that accepted it). Removing a member or withdrawing an invitation deletes
 * the row, so its token stops working at once.
 */
@Entity('business_members')
// One open invitation or membership per address and business; emails are stored lower-case.
@Index('business_members_business_email_key', ['businessUuid', 'email'], { unique: true })
@Index('business_members_user_idx', ['userUuid', 'businessUuid'])
@Index('business_members_token_key', ['tokenHash'], { unique: true })
export class BusinessMemberEntity {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'PK_business_members' })
  uuid!: string;

  @Column({ name: 'business_uuid', type: 'uuid' })
  businessUuid!: string;

  @Column({ type: 'varchar', length: 320 })
  email!: string;

  @Column({ type: 'varchar', length: 16 })
  role!: MemberRole;

  @Column({ type: 'varchar', length: 16 })
  status!: MemberStatus;

  @Column({ name: 'user_uuid', type: 'uuid', nullable: true })
  userUuid!: string | null;

  /** SHA-256 (hex) of the invitation token while it is open; null once accepted. */
  @Column({ name: 'token_hash', type: 'varchar', length: 64, nullable: true })
  tokenHash!: string | null;

  @Column({ name: 'invited_by', type: 'uuid' })
  invitedBy!: string;

  @CreateDateColumn({ name: 'invited_at', type: 'timestamptz' })
  invitedAt!: Date;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt!: Date;

  @Column({ name: 'accepted_at', type: 'timestamptz', nullable: true })
  acceptedAt!: Date | null;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
