import { KitchenTicketLineEntity } from './kitchen-ticket-line.entity';
import { KitchenTicketVersionEntity } from './kitchen-ticket-version.entity';
import { KitchenTicketEntity } from './kitchen-ticket.entity';

export { KitchenTicketEntity, KitchenTicketLineEntity, KitchenTicketVersionEntity };

/** The kitchen module's tables, collected by the composition root (src/entities.ts). */
export const KITCHEN_ENTITIES = [
  KitchenTicketEntity,
  KitchenTicketLineEntity,
  KitchenTicketVersionEntity,
];
