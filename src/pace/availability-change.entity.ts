import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/**
 * One change of a business's availability (open, busy, paused): what it
 * became, and who changed it when. The newest row says who made the
 * current state; the rows together are the record of every change.
 */
@Entity('business_availability_changes')
@Index('business_availability_changes_business_idx', ['businessUuid', 'changedAt'])
export class AvailabilityChangeEntity {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'PK_business_availability_changes' })
  uuid!: string;

  @Column({ name: 'business_uuid', type: 'uuid' })
  businessUuid!: string;

  @Column({ type: 'varchar', length: 16 })
  mode!: string;

  @Column({ name: 'extra_prep_minutes', type: 'int', nullable: true })
  extraPrepMinutes!: number | null;

  @Column({ type: 'timestamptz', nullable: true })
  until!: Date | null;

  @Column({ name: 'changed_by', type: 'uuid' })
  changedBy!: string;

  @Column({ name: 'changed_at', type: 'timestamptz' })
  changedAt!: Date;
}
