/**
 * What the bench measures: one row of the table per scenario, in the order
 * the table prints them (the requests each one sends are in requests.ts, the
 * row's shape in scenario-types.ts). harness.ts walks
 * SCENARIOS once per service run (phase): first the service with the
 * storefront cache off, then with its default cache, then (P18) a service
 * that sends its mail to the bench's SMTP server.
 */
import { DRAIN_MAILS } from './mail-drain';
import { LONG_TAIL_BUSINESSES } from './seed-long-tail';
import { Scenario } from './scenario-types';
import { PAYMENT_SCENARIOS, PLACEMENT_SCENARIOS } from './scenarios-orders';
import { ACCEPTANCES_PER_SECOND, STATION_STREAMS } from './station-streams';

export type { Load, Phase, RowRef, Scenario } from './scenario-types';

const storefront = { request: 'storefront' } as const;

export const SCENARIOS: Scenario[] = [
  {
    id: 'P1',
    only: 'P1',
    title: 'P1 storefront, 1000 items with 2 option groups each (cache off)',
    phase: 'cache off',
    service: { name: 'P1 service', at: 'service', ...storefront },
    ceiling: { name: 'P1 ceiling', at: 'ceiling', ...storefront },
    ratioTo: 'ceiling',
    targetRatio: 3,
    targetP99Ms: 500,
  },
  {
    // What answering with these bytes costs at all on this machine (see ceiling.ts).
    id: 'P1 floor',
    only: 'P1',
    title: 'P1 floor: the same answer written from memory by bare node:http',
    phase: 'cache off',
    ceiling: { name: 'P1 floor', at: 'floor', ...storefront },
    ceilingLabel: 'floor',
  },
  {
    // A client that holds the current answer: If-None-Match with its ETag, answered 304.
    id: 'P1 conditional',
    only: 'P1',
    title: 'P1 storefront, If-None-Match with the current ETag (304, cache off)',
    phase: 'cache off',
    service: {
      name: 'P1 service, If-None-Match',
      at: 'service',
      ...storefront,
      headers: 'if-none-match',
    },
    expectedStatus: 304,
  },
  {
    // The same page right after the seed, before any ANALYZE: its plan must not need statistics.
    id: 'P2 unanalyzed',
    only: 'P2',
    title: 'P2 list, 100 per page by sort_position, tables NOT analyzed (no statistics)',
    phase: 'cache off',
    unanalyzed: true,
    service: { name: 'P2 service, tables not analyzed', at: 'service', request: 'list' },
    ratioTo: { row: 'P2', side: 'service' },
    ratioOf: 'P2 on analyzed tables',
    targetRatio: 0.9,
  },
  {
    id: 'P2',
    only: 'P2',
    title: 'P2 list, 100 per page by sort_position, tables analyzed',
    phase: 'cache off',
    service: { name: 'P2 service', at: 'service', request: 'list' },
    ceiling: { name: 'P2 ceiling', at: 'ceiling', request: 'list' },
    ratioTo: 'ceiling',
    targetRatio: 1.5,
  },
  {
    // A client that holds the current page: If-None-Match with its ETag, answered 304.
    id: 'P2 conditional',
    only: 'P2',
    title: 'P2 list, If-None-Match with the current ETag (304), tables analyzed',
    phase: 'cache off',
    service: {
      name: 'P2 service, If-None-Match',
      at: 'service',
      request: 'list',
      headers: 'if-none-match',
    },
    expectedStatus: 304,
    ratioTo: { row: 'P2', side: 'ceiling' },
    ratioOf: 'the P2 ceiling',
    targetRatio: 5,
  },
  ...PLACEMENT_SCENARIOS,
  {
    // Acceptance writes the kitchen's tickets in its transaction: here one per
    // station, three stations routed by category, against the same orders of
    // a business without a kitchen setting (one ticket each). Every request
    // accepts a pending order of its own, seeded before the row.
    id: 'P9',
    only: 'P9',
    title: 'P9 acceptance of a 6-line order whose lines go to 3 kitchen stations',
    phase: 'cache off',
    outsideRssBudget: true,
    prepare: 'kitchen orders',
    service: { name: 'P9 service', at: 'service', request: 'kitchen acceptance' },
    ceiling: {
      name: 'P9 same acceptances without a kitchen setting',
      at: 'service',
      request: 'plain acceptance',
    },
    ceilingLabel: 'service, the same acceptances without a kitchen setting',
    ceilingFirst: true,
    ratioTo: 'ceiling',
    targetRatio: 0.9,
    ratioOf: 'the same acceptances without a kitchen setting',
    ticketCheck: true,
    drainOutbox: true,
  },
  {
    // The station streams while orders are accepted: STATION_STREAMS streams
    // of P9's kitchen business spread over its 3 stations, and a steady
    // ACCEPTANCES_PER_SECOND acceptances of its pending orders. The row's
    // req/s are deliveries a second, its p50/p99 the delay from an
    // acceptance's send to its ticket on each stream (station-streams.ts).
    id: 'P14',
    only: 'P14',
    title: `P14 ${STATION_STREAMS} station streams over 3 stations, ${ACCEPTANCES_PER_SECOND} acceptances a second: send to ticket on every stream (req/s: deliveries)`,
    phase: 'cache off',
    outsideRssBudget: true,
    prepare: 'kitchen orders',
    measure: 'station streams',
    targetP99Ms: 1000,
  },
  {
    // The storefront in the second of three languages, every item translated
    // and with allergens, against P1's request on the same service in the
    // same row, so the ratio is there when P12 runs alone.
    id: 'P12',
    only: 'P12',
    title: 'P12 storefront, 1000 items in 3 languages with allergens, ?lang=fr (cache off)',
    phase: 'cache off',
    outsideRssBudget: true,
    service: { name: 'P12 service', at: 'service', request: 'languages storefront' },
    ceiling: { name: 'P12 P1 storefront', at: 'service', ...storefront },
    ceilingLabel: 'service, P1 storefront (one language, no allergens)',
    ceilingFirst: true,
    alternate: true,
    ratioTo: 'ceiling',
    targetRatio: 0.9,
    ratioOf: 'P1 uncached',
  },
  ...PAYMENT_SCENARIOS,
  {
    id: 'P4',
    only: 'P4',
    title: 'P4 login (argon2id), reported only',
    phase: 'cache off',
    outsideRssBudget: true,
    service: { name: 'P4 service', at: 'service', request: 'login' },
  },
  {
    id: 'P1 cached',
    only: 'P1',
    title: 'P1 storefront, default cache (2 s)',
    phase: 'default cache',
    service: { name: 'P1 service, default cache', at: 'service', ...storefront },
    ratioTo: { row: 'P1', side: 'ceiling' },
    targetP99Ms: 50,
  },
  {
    // The same request as a browser sends it: the other rows ask for no compression.
    id: 'P1 cached gzip',
    only: 'P1',
    title: 'P1 storefront, default cache, Accept-Encoding: gzip (as browsers send)',
    phase: 'default cache',
    service: {
      name: 'P1 service, default cache, gzip',
      at: 'service',
      ...storefront,
      headers: 'gzip',
    },
    ceiling: { name: 'P1 floor, gzip', at: 'floor', ...storefront, headers: 'gzip' },
    ceilingLabel: 'floor, gzip',
    targetP99Ms: 50,
  },
  {
    // One hot 60-item storefront, always in the cache, against reads spread over all of them.
    id: 'P6',
    only: 'P6',
    title: `P6 long tail: ${LONG_TAIL_BUSINESSES} storefronts of 60 items at random, default cache, gzip`,
    phase: 'default cache',
    service: { name: 'P6 service, default cache', at: 'service', request: 'long tail' },
    ceiling: {
      name: 'P6 single hot storefront, default cache',
      at: 'service',
      request: 'hot long tail',
    },
    ceilingLabel: 'one hot storefront',
    ceilingFirst: true,
    alternate: true,
    ratioTo: 'ceiling',
    targetRatio: 0.8,
    ratioOf: 'the single hot storefront',
  },
  {
    id: 'P6 cache off',
    only: 'P6',
    title: `P6 long tail: ${LONG_TAIL_BUSINESSES} storefronts of 60 items at random, cache off, gzip`,
    phase: 'default cache',
    serviceLoadedIn: 'cache off',
    outsideRssBudget: true,
    prepare: 'long tail',
    service: { name: 'P6 service, cache off', at: 'service', request: 'long tail' },
    ceiling: { row: 'P6', side: 'ceiling' },
    ceilingLabel: 'one hot storefront',
    ratioTo: 'ceiling',
    ratioOf: 'the single hot storefront',
  },
  {
    // One connection: the time one report takes, not the time it waits behind others.
    id: 'P7 sales',
    only: 'P7',
    title: 'P7 sales report of a year by day, 200,000 orders (one connection)',
    phase: 'cache off',
    outsideRssBudget: true,
    prepare: 'report orders',
    service: { name: 'P7 sales report', at: 'service', request: 'sales report' },
    targetP50Ms: 300,
  },
  {
    id: 'P7 items',
    only: 'P7',
    title: 'P7 items report of a year, 200,000 orders (one connection)',
    phase: 'cache off',
    outsideRssBudget: true,
    prepare: 'report orders',
    service: { name: 'P7 items report', at: 'service', request: 'items report' },
    targetP50Ms: 300,
  },
  {
    id: 'P8',
    only: 'P8',
    title: 'P8 CSV of a year, 200,000 orders: rows a second and VmRSS growth while streaming',
    phase: 'cache off',
    outsideRssBudget: true,
    prepare: 'report orders',
    measure: 'csv export',
    targetRowsPerSecond: 50_000,
    targetRssGrowthMB: 50,
  },
  {
    // A batch is sized by its rows, lines included: orders of many lines stay flat too.
    id: 'P16',
    only: 'P16',
    title: 'P16 CSV with lines=true, 500 orders of 100 lines: VmRSS growth while streaming',
    phase: 'cache off',
    outsideRssBudget: true,
    prepare: 'line orders',
    measure: 'csv export with lines',
    targetRssGrowthMB: 50,
  },
  {
    // The sheets render on their own thread: the event loop keeps answering storefront reads.
    id: 'P17',
    only: 'P17',
    title:
      'P17 storefront of 100 items (cache off, one connection) beside rounds of 20 parallel 200-table sheets',
    phase: 'cache off',
    outsideRssBudget: true,
    service: { name: 'P17 storefront beside sheets', at: 'service', request: 'small storefront' },
    beside: 'table sheets',
    targetP99Ms: 100,
  },
  {
    // A service of its own, whose mail goes to the bench's SMTP server (the
    // other runs log their mail): the outbox after a backlog, as after a crash.
    id: 'P18',
    only: 'P18',
    title: `P18 ${DRAIN_MAILS} due mails drained by one process to a local SMTP server`,
    phase: 'smtp relay',
    outsideRssBudget: true,
    measure: 'mail drain',
  },
];
