import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * The latest version given to a business's tickets. Every change of a
 * ticket takes the next one by updating this row, whose lock is then held
 * until its transaction ends: the versions of a business commit in the
 * order they were given, so a reader's `since` cursor never passes a
 * change that commits later.
 */
@Entity('kitchen_ticket_versions')
export class KitchenTicketVersionEntity {
  @PrimaryColumn({
    name: 'business_uuid',
    type: 'uuid',
    primaryKeyConstraintName: 'PK_kitchen_ticket_versions',
  })
  businessUuid!: string;

  @Column({ type: 'bigint' })
  version!: string;
}
