import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { AppConfig } from '../config/config';
import { InjectConfig } from '../config/config.module';
import { GroupBy } from './dto/report-query.dto';
import { ReportRange } from './report-range';
import { RAW_ITEMS_SQL, rawFiguresSql } from './report-raw-sql';
import {
  BOUNDS_SQL,
  FOLD_SQL,
  PeriodBounds,
  ROLLUP_ITEMS_SQL,
  rollupFiguresSql,
  rollupParams,
} from './report-rollup-sql';
import { LOCAL_ISO } from './report-sql';

/** Sort memory of one report's transaction (PostgreSQL's default is 4MB). */
const REPORT_WORK_MEM = '32MB';

/** One bucket of the period, before any order is counted in it. */
export interface BucketRow {
  key: string;
  label: string;
  start: string | null;
}

/** Sums of one grouping: a bucket (`key`), a processor, a fulfilment type, or the whole period. */
export interface FiguresRow {
  grouping: 'bucket' | 'processor' | 'fulfilment' | 'total';
  key: string | null;
  orders: number;
  open_orders: number;
  lost_orders: number;
  items_subtotal: string;
  discount: string;
  service_charge: string;
  tax: string;
  tip: string;
  delivery_fee: string;
  total: string;
  refunded: string;
  net: string;
  average_order: string;
}

export interface ItemRow {
  item_uuid: string;
  title_name: string | null;
  quantity: string;
  revenue: string;
  orders: number;
  options: Array<{ group: string; option: string; option_title: string | null; count: number }>;
}

/** The period's bounds in the bucket queries, which take only ($1 first day, $2 last day). */
const FIRST = '$1::date::timestamptz';
const AFTER = '($2::date + 1)::timestamptz';

/** Every bucket of the period with its key, label and local start; weekdays take no parameter. */
const BUCKETS: Record<GroupBy, string> = {
  day: `SELECT to_char(d, 'YYYY-MM-DD') AS key, to_char(d, 'YYYY-MM-DD') AS label,
               to_char(d::timestamptz, ${LOCAL_ISO}) AS start
          FROM generate_series($1::date::timestamp, $2::date::timestamp, interval '1 day') AS d
         ORDER BY d`,
  hour: `SELECT i::text AS key, to_char(${FIRST} + i * interval '1 hour', 'YYYY-MM-DD HH24:00') AS label,
                to_char(${FIRST} + i * interval '1 hour', ${LOCAL_ISO}) AS start
           FROM generate_series(0, ceil((extract(epoch FROM ${AFTER})
                  - extract(epoch FROM ${FIRST})) / 3600)::int - 1) AS i
          ORDER BY i`,
  weekday: `SELECT i::text AS key,
                   (ARRAY['mon','tue','wed','thu','fri','sat','sun'])[i] AS label, NULL::text AS start
              FROM generate_series(1, 7) AS i
             ORDER BY i`,
  month: `SELECT to_char(m, 'YYYY-MM') AS key, to_char(m, 'YYYY-MM') AS label,
                 to_char(greatest(m, $1::date::timestamp)::timestamptz, ${LOCAL_ISO}) AS start
            FROM generate_series(date_trunc('month', $1::date::timestamp), $2::date::timestamp,
                                 interval '1 month') AS m
           ORDER BY m`,
};

/** The report queries: all of their SQL. */
@Injectable()
export class ReportRepository {
  private readonly businessType: string;

  constructor(
    private readonly dataSource: DataSource,
    @InjectConfig() config: AppConfig,
  ) {
    this.businessType = `${config.namespace}_business`;
  }

  /** The business's extra_data (its opening hours carry the time zone). */
  async businessExtraData(businessUuid: string): Promise<Record<string, unknown> | null> {
    const rows: Array<{ extra_data: Record<string, unknown> | null }> = await this.dataSource.query(
      'SELECT extra_data FROM entities WHERE uuid = $1 AND entity_type = $2',
      [businessUuid, this.businessType],
    );
    return rows[0]?.extra_data ?? null;
  }

  /**
   * Runs `work` in a transaction whose TimeZone is `timeZone`. A year's
   * report from the orders sorts a few hundred thousand small rows; a larger
   * work_mem lets that sort stay in memory instead of spilling to disk, for
   * this transaction only. JIT compilation is off: the rollup queries read
   * tens of thousands of rows in tens of milliseconds, but the planner's
   * guess for the options JSON expanded per line (100 elements each) puts
   * their cost above jit_above_cost, and compiling took over a second.
   */
  inTimeZone<T>(timeZone: string, work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(async (manager) => {
      await manager.query(
        `SELECT set_config('TimeZone', $1, true), set_config('work_mem', '${REPORT_WORK_MEM}', true),
                set_config('jit', 'off', true)`,
        [timeZone],
      );
      return work(manager);
    });
  }

  /**
   * The sales figures of the period: its deltas folded into the rollups
   * first (this transaction holds the rollup rows it changed until the
   * report is read; writers never wait on them), then read from the rollups,
   * or from the orders when the zone's offsets in the period are not whole
   * 15-minute slots. `fromOrders` reads the orders always: the reference.
   */
  async sales(
    businessUuid: string,
    range: ReportRange,
    groupBy: GroupBy,
    timeZone: string,
    fromOrders = false,
  ): Promise<{ buckets: BucketRow[]; figures: FiguresRow[] }> {
    return this.inTimeZone(timeZone, async (manager) => {
      const buckets: BucketRow[] = await manager.query(
        BUCKETS[groupBy],
        groupBy === 'weekday' ? [] : [range.from, range.to],
      );
      const params = [businessUuid, range.from, range.to];
      const [bounds]: PeriodBounds[] = await manager.query(BOUNDS_SQL, [range.from, range.to]);
      const rollups = !fromOrders && bounds.aligned;
      if (rollups) await manager.query(FOLD_SQL, [businessUuid]);
      const figures: FiguresRow[] = rollups
        ? await manager.query(rollupFiguresSql(groupBy), [
            ...rollupParams(businessUuid, range.from, range.to, bounds),
          ])
        : await manager.query(rawFiguresSql(groupBy), params);
      return { buckets, figures };
    });
  }

  /** The period's top items: deltas folded, then rollups (`fromOrders`: the orders, the reference). */
  async items(
    businessUuid: string,
    range: ReportRange,
    limit: number,
    timeZone: string,
    fromOrders = false,
  ): Promise<ItemRow[]> {
    return this.inTimeZone(timeZone, async (manager) => {
      if (fromOrders) {
        return manager.query(RAW_ITEMS_SQL, [businessUuid, range.from, range.to, limit]);
      }
      const [bounds]: PeriodBounds[] = await manager.query(BOUNDS_SQL, [range.from, range.to]);
      await manager.query(FOLD_SQL, [businessUuid]);
      return manager.query(ROLLUP_ITEMS_SQL, [
        ...rollupParams(businessUuid, range.from, range.to, bounds),
        limit,
      ]);
    });
  }
}
