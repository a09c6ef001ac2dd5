/**
 * A tab closed: paid (by itself), or by an owner or manager with money due.
 * Published in the transaction that closed it; `tab` is what the webhooks
 * send (the tab's summary: its money, table, times and rounds' uuids).
 */
export interface TabClosed {
  ownerUuid: string;
  businessUuid: string;
  tab: {
    uuid: string;
    business_uuid: string;
    menu_uuid: string;
    table: string;
    status: 'closed';
    total: string;
    paid: string;
    due: string;
    currency: string | null;
    opened_at: string;
    closed_at: string | null;
    close_reason: string | null;
    round_uuids: string[];
  };
}

declare module '../../database/event-bus' {
  interface AppEvents {
    'tab.closed': TabClosed;
  }
}
