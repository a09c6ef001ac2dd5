/** The shape of a row of the bench's table (bench/scenarios.ts) and of its loads. */
/**
 * The service run a row is measured in: the storefront cache off, the
 * default cache, or a service that sends its mail to the bench's SMTP server.
 */
export type Phase = 'cache off' | 'default cache' | 'smtp relay';

/** One load run: its log name, where it goes, and what it asks. */
export interface Load {
  name: string;
  /** The service, the ceiling, or the ceiling's floor (bare bytes from memory). */
  at: 'service' | 'ceiling' | 'floor';
  request:
    | 'storefront'
    | 'small storefront'
    | 'languages storefront'
    | 'list'
    | 'order'
    | 'priced order'
    | 'scheduled order'
    | 'scheduled menu order for now'
    | 'zoned order'
    | 'zoneless order'
    | 'stocked order'
    | 'unstocked order'
    | 'hot stocked order'
    | 'card order'
    | 'tab round'
    | 'ussd charge'
    | 'kitchen acceptance'
    | 'plain acceptance'
    | 'login'
    | 'long tail'
    | 'hot long tail'
    | 'sales report'
    | 'items report';
  /** Accept-Encoding as browsers send it, or If-None-Match with the current ETag of the URL. */
  headers?: 'gzip' | 'if-none-match';
}

/** Another row's measured load, by row id. */
export interface RowRef {
  row: string;
  side: 'service' | 'ceiling';
}

export interface Scenario {
  /** The row's id in the table. */
  id: string;
  /** The BENCH_ONLY name that selects it. */
  only:
    | 'P1'
    | 'P2'
    | 'P3'
    | 'P4'
    | 'P5'
    | 'P6'
    | 'P7'
    | 'P8'
    | 'P9'
    | 'P10'
    | 'P11'
    | 'P12'
    | 'P13'
    | 'P14'
    | 'P15'
    | 'P16'
    | 'P17'
    | 'P18';
  title: string;
  /** The service run the row is measured and reported in. */
  phase: Phase;
  /** When the service load runs in an earlier phase than the row is reported. */
  serviceLoadedIn?: Phase;
  /** Read after the service's VmHWM for the RSS budget is taken (see harness.ts). */
  outsideRssBudget?: boolean;
  service?: Load;
  ceiling?: Load | RowRef;
  ceilingLabel?: string;
  /** Run the ceiling's load before the service's. */
  ceilingFirst?: boolean;
  /**
   * Measure the two loads of the row in turn, ceiling, service, service,
   * ceiling, each for half the measured time (with `ceilingFirst`, for
   * requests that may be sent again): a drift of the machine's pace or the
   * tables' growth over the row then weighs on both sides alike, where one
   * load after the other always gave it to the second.
   */
  alternate?: boolean;
  /** What the ratio divides by: this row's ceiling, or another row's load. */
  ratioTo?: 'ceiling' | RowRef;
  ratioOf?: string;
  targetRatio?: number;
  targetP99Ms?: number;
  targetP50Ms?: number;
  expectedStatus?: number;
  /**
   * Measured on the tables as the seed left them, before the bench's ANALYZE:
   * no statistics, as after an import or on a server whose autovacuum is off
   * or behind. These rows run first in their phase.
   */
  unanalyzed?: boolean;
  /** Seed what the row reads before its service load. */
  prepare?: 'long tail' | 'report orders' | 'line orders' | 'kitchen orders' | 'ussd orders';
  /**
   * A measure other than a load: one download of a CSV (P8's year, P16's
   * lines), P18's mail backlog, P14's station streams under acceptances.
   */
  measure?: 'csv export' | 'csv export with lines' | 'mail drain' | 'station streams';
  /** The targets of a CSV download. */
  targetRowsPerSecond?: number;
  targetRssGrowthMB?: number;
  /** Work the service does beside the row's load while it is measured (P17's table sheets). */
  beside?: 'table sheets';
  /** Count stored orders around the service load and compare them with its 201 answers. */
  orderCheck?: { into: 'orderCheck' | 'cardOrderCheck'; logAs: string };
  /** After the service load, the hot stocked item's count must equal the portions its orders hold. */
  stockCheck?: boolean;
  /** After each load, the tickets stored must be one per station for every accepted order. */
  ticketCheck?: boolean;
  /** Wait for the outbox to send the placed orders' mails after each load. */
  drainOutbox?: boolean;
}
