import { StockSetting } from '../entity';

/** What remains of an item crossed a line: down to `low_at`, or to 0. */
export interface StockCrossed {
  type: 'stock.low' | 'item.sold_out';
  /** The business's owner, whose webhook endpoints hear of it. */
  ownerUuid: string;
  businessUuid: string;
  item: {
    item_uuid: string;
    menu_uuid: string | null;
    mode: StockSetting['mode'];
    /** The local day, for daily stock; null for count stock. */
    date: string | null;
    quantity: number;
    taken: number;
    remaining: number;
    low_at: number;
  };
}

declare module '../database/event-bus' {
  interface AppEvents {
    'stock.crossed': StockCrossed;
  }
}

// R97: `stock.low` when what remains falls from above `low_at` to it or below, `item.sold_out` when it reaches 0.
/** The lines a change of what remains crossed on its way down, once each. */
export function crossings(
  before: number,
  after: number,
  lowAt: number,
): Array<StockCrossed['type']> {
  const crossed: Array<StockCrossed['type']> = [];
  if (before > lowAt && after <= lowAt) crossed.push('stock.low');
  if (before > 0 && after <= 0) crossed.push('item.sold_out');
  return crossed;
}
