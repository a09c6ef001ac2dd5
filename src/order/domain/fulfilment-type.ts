/** How an order is handed over to the guest. */
export const FULFILMENT_TYPES = ['dine_in', 'pickup', 'delivery'] as const;
export type FulfilmentType = (typeof FULFILMENT_TYPES)[number];
