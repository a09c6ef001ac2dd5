import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * The orders for later that hold one slot of a menu (those not cancelled or
 * rejected). The row is the lock the slot cap is counted under.
 */
@Entity('order_slots')
export class OrderSlotEntity {
  @PrimaryColumn({
    name: 'menu_uuid',
    type: 'uuid',
    primaryKeyConstraintName: 'PK_order_slots',
  })
  menuUuid!: string;

  @PrimaryColumn({
    name: 'slot_start',
    type: 'timestamptz',
    primaryKeyConstraintName: 'PK_order_slots',
  })
  slotStart!: Date;

  @Column({ type: 'integer', default: 0 })
  taken!: number;
}
