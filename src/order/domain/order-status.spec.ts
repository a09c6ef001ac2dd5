import {
  canMoveStatus,
  isFinalStatus,
  isOrderStatus,
  nextStatuses,
  ORDER_STATUSES,
  OrderStatus,
} from './order-status';

/** The allowed status moves written out once more, independently of the implementation's table. */
const ALLOWED: Array<[OrderStatus, OrderStatus]> = [
  ['pending', 'accepted'],
  ['pending', 'rejected'],
  ['pending', 'cancelled'],
  ['accepted', 'preparing'],
  ['accepted', 'ready'],
  ['accepted', 'cancelled'],
  ['preparing', 'ready'],
  ['preparing', 'cancelled'],
  ['ready', 'out_for_delivery'],
  ['ready', 'completed'],
  ['out_for_delivery', 'completed'],
];
const allowedKey = new Set(ALLOWED.map(([from, to]) => `${from}>${to}`));
const ALL_PAIRS = ORDER_STATUSES.flatMap((from) => ORDER_STATUSES.map((to) => [from, to] as const));

describe('order state machine', () => {
  it.each(ALLOWED)('allows %s → %s', (from, to) => {
    expect(canMoveStatus(from, to)).toBe(true);
    expect(nextStatuses(from)).toContain(to);
  });

  it.each(ALL_PAIRS.filter(([from, to]) => !allowedKey.has(`${from}>${to}`)))(
    'refuses %s → %s',
    (from, to) => {
      expect(canMoveStatus(from, to)).toBe(false);
      expect(nextStatuses(from)).not.toContain(to);
    },
  );

  it('makes completed, rejected and cancelled final, and nothing else', () => {
    expect(ORDER_STATUSES.filter(isFinalStatus)).toEqual(['completed', 'rejected', 'cancelled']);
  });

  it('recognises only the order states', () => {
    expect(ORDER_STATUSES.every(isOrderStatus)).toBe(true);
    for (const value of ['Pending', 'shipped', '', null, 3, undefined]) {
      expect(isOrderStatus(value)).toBe(false);
    }
  });
});
