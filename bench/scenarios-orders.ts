/**
 * The bench's rows of order placement (P3 and its variants, P10, P11, P13)
 * and of online payments (P5, P15), in the order the table prints them;
 * bench/scenarios.ts places them among the others.
 */
import { Scenario } from './scenario-types';

export const PLACEMENT_SCENARIOS: Scenario[] = [
  {
    // The ceiling first, and its mails sent by the service's outbox worker
    // before the service's own run starts, so neither run pays for the other.
    id: 'P3',
    only: 'P3',
    title: 'P3 order, 5 lines with options, unique Idempotency-Key',
    phase: 'cache off',
    service: { name: 'P3 service', at: 'service', request: 'order' },
    ceiling: { name: 'P3 ceiling', at: 'ceiling', request: 'order' },
    ceilingFirst: true,
    alternate: true,
    ratioTo: 'ceiling',
    targetRatio: 1,
    orderCheck: { into: 'orderCheck', logAs: 'orders stored by the service run' },
    drainOutbox: true,
  },
  {
    // The same placement priced in lines: the code's row is locked in every
    // order's transaction, so this row shows what pricing and that lock cost.
    id: 'P3 priced',
    only: 'P3',
    title: 'P3 order, 5 lines, with VAT, a dine-in service charge and a discount code',
    phase: 'cache off',
    service: { name: 'P3 priced service', at: 'service', request: 'priced order' },
    ceiling: { row: 'P3', side: 'service' },
    ceilingLabel: 'P3 service (no pricing)',
    ratioTo: 'ceiling',
    drainOutbox: true,
  },
  {
    // Orders for later: every placement takes its slot's row lock (an upsert
    // that counts the slot against its cap) inside the order's transaction.
    // Measured against the same orders for now on the same menu, which take
    // no slot, so the ratio is the lock's cost alone.
    id: 'P3s',
    only: 'P3',
    title: 'P3s order for later, 5 lines, in 20 slots of 5 minutes capped at 10000',
    phase: 'cache off',
    service: { name: 'P3s service', at: 'service', request: 'scheduled order' },
    ceiling: {
      name: 'P3s same orders for now',
      at: 'service',
      request: 'scheduled menu order for now',
    },
    ceilingLabel: 'service, the same orders for now',
    ceilingFirst: true,
    alternate: true,
    ratioTo: 'ceiling',
    drainOutbox: true,
  },
  {
    // Delivery priced by zone: the menu has 50 polygons of 500 points, and
    // each guest's point is in the last one only, so every placement tests
    // all 50 edge by edge. Measured against the same delivery orders on a
    // menu without zones, so the ratio is what the zones cost a placement.
    id: 'P11',
    only: 'P11',
    title: 'P11 delivery order, 5 lines, on a menu of 50 zones of 500 points',
    phase: 'cache off',
    // Not one of P1-P3, whose RSS budget the table judges.
    outsideRssBudget: true,
    service: { name: 'P11 service', at: 'service', request: 'zoned order' },
    ceiling: { name: 'P11 same orders without zones', at: 'service', request: 'zoneless order' },
    ceilingLabel: 'service, the same orders without zones',
    ceilingFirst: true,
    alternate: true,
    ratioTo: 'ceiling',
    targetRatio: 0.9,
    ratioOf: 'the same orders without zones',
    drainOutbox: true,
  },
  {
    // Stock: every line of these orders names an item that counts its
    // portions, so each placement takes them all in one conditional statement
    // (and holds their ledger rows and the storefront's version bump for the
    // commit) in the order's transaction. Measured against the same orders
    // on a menu of the same items without stock.
    id: 'P10',
    only: 'P10',
    title: 'P10 order, 5 lines, of items that count their portions',
    phase: 'cache off',
    outsideRssBudget: true,
    service: { name: 'P10 service', at: 'service', request: 'stocked order' },
    ceiling: { name: 'P10 same orders without stock', at: 'service', request: 'unstocked order' },
    ceilingLabel: 'service, the same orders without stock',
    ceilingFirst: true,
    alternate: true,
    ratioTo: 'ceiling',
    targetRatio: 0.9,
    ratioOf: 'the same orders without stock',
    drainOutbox: true,
  },
  {
    // Every connection orders one portion of the same stocked item: the
    // count's row is the one all placements wait for. The stored orders must
    // equal the 201 answers and the count the portions they hold.
    id: 'P10 hot',
    only: 'P10',
    title: 'P10 hot: every connection orders one portion of the same stocked item',
    phase: 'cache off',
    outsideRssBudget: true,
    service: { name: 'P10 hot service', at: 'service', request: 'hot stocked order' },
    ceiling: { row: 'P10', side: 'ceiling' },
    ceilingLabel: 'P10 service, the 5-line orders without stock',
    ratioTo: 'ceiling',
    orderCheck: { into: 'orderCheck', logAs: 'hot orders stored' },
    stockCheck: true,
    drainOutbox: true,
  },
  {
    // A tab's round: P3's body on a menu whose dine-in tables keep tabs,
    // with the table's tab_token, so every order joins its table's open tab
    // (on_tab, no payment of its own) under the tab's row lock. One tab per
    // table, the rounds in turn over 50 tables: a party's rounds are minutes
    // apart, so two rounds of one tab seldom meet. Against P3's orders on
    // the same service in the same row.
    id: 'P13',
    only: 'P13',
    title: "P13 tab round: P3's 5 lines as a round of the open tab of one of 50 tables",
    phase: 'cache off',
    outsideRssBudget: true,
    service: { name: 'P13 service', at: 'service', request: 'tab round' },
    ceiling: { name: 'P13 P3 orders', at: 'service', request: 'order' },
    ceilingLabel: 'service, P3 orders (no tab)',
    ceilingFirst: true,
    alternate: true,
    ratioTo: 'ceiling',
    targetRatio: 0.9,
    ratioOf: 'P3 orders',
    drainOutbox: true,
  },
];

export const PAYMENT_SCENARIOS: Scenario[] = [
  {
    id: 'P5',
    only: 'P5',
    title: 'P5 card order, 5 lines, opening a Paystack checkout (fake, answers at once)',
    phase: 'cache off',
    outsideRssBudget: true,
    service: { name: 'P5 service', at: 'service', request: 'card order' },
    // Beside the same orders paid in cash, right before it: P3's own row
    // runs minutes earlier, and the machine's pace drifts more than that
    // between rows of one run.
    ceiling: { name: 'P5 P3 orders', at: 'service', request: 'order' },
    ceilingLabel: 'service, P3 orders (cash)',
    ceilingFirst: true,
    alternate: true,
    ratioTo: 'ceiling',
    targetRatio: 0.8,
    ratioOf: 'P3 orders (cash)',
    orderCheck: { into: 'cardOrderCheck', logAs: 'orders stored' },
    drainOutbox: true,
  },
  {
    // A charge from the order page: each request opens a USSD charge
    // (Paystack's Charge API, a fake on loopback that answers at once with
    // the code to dial) for an unpaid order of its own, inserted before the
    // row. Against P3's orders on the same service in the same row.
    id: 'P15',
    only: 'P15',
    title: 'P15 USSD charge of an unpaid order (Paystack Charge API, fake, answers at once)',
    phase: 'cache off',
    outsideRssBudget: true,
    prepare: 'ussd orders',
    service: { name: 'P15 service', at: 'service', request: 'ussd charge' },
    ceiling: { name: 'P15 P3 orders', at: 'service', request: 'order' },
    ceilingLabel: 'service, P3 orders (cash)',
    ceilingFirst: true,
    ratioTo: 'ceiling',
    targetRatio: 0.8,
    ratioOf: 'P3 orders',
    drainOutbox: true,
  },
];
