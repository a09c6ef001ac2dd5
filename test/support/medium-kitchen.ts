import { randomUUID } from 'node:crypto';
import type { NewStationTicket } from '../../src/kitchen/ticket-writes.repository';
import type { NewTicketLine } from '../../src/kitchen/kitchen.repository';

/*
 * Kitchen settings and tickets as the acceptance writes them, for medium
 * specs of the kitchen's repositories.
 */

/** Two stations: food to the grill (also the default), drinks to the bar. */
export const GRILL_AND_BAR = {
  stations: [
    { key: 'grill', title: 'Grill', categories: ['Food'], item_uuids: [] },
    { key: 'bar', title: 'Bar', categories: ['Drinks'], item_uuids: [] },
  ],
  default_station: 'grill',
};

/** A queued line of one dish with an allergen. */
export const ticketLine = (position: number): NewTicketLine => ({
  position,
  orderLineUuid: randomUUID(),
  itemUuid: randomUUID(),
  titleName: `Dish ${position}`,
  options: [],
  quantity: 1,
  itemNote: null,
  allergens: ['nuts'],
  status: 'queued',
});

/** A queued `new` ticket of a pickup order for `station`, with these lines. */
export const newStationTicket = (
  orderUuid: string,
  station: string,
  lines: NewTicketLine[],
): NewStationTicket => ({
  orderUuid,
  orderReference: 'ABCD-EFGH',
  station,
  kind: 'new',
  fulfilmentType: 'pickup',
  tableLabel: null,
  requestedTime: null,
  estimatedReadyAt: null,
  generalNote: null,
  status: 'queued',
  lines,
});
