import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { BatchUnderWay } from '../database/batch-under-way';
import { OutboxKind } from './outbox.entity';
import { LaneKinds } from './outbox-lanes';

export interface ClaimedRow {
  uuid: string;
  kind: OutboxKind;
  payload: Record<string, unknown>;
  /** Attempts including the one just claimed. */
  attempts: number;
  createdAt: Date;
  /** Who receives it (a webhook endpoint, a message provider), or null. */
  receiver: string | null;
}

/** What one lane may start now. */
export interface ClaimRequest {
  kinds: LaneKinds;
  /** Free slots of the lane: at most this many rows are claimed. */
  take: number;
  /** How many of one receiver's rows the lane may have in flight. */
  perReceiver: number;
  /** The receivers the lane has rows of in flight, and how many each. */
  busy: Map<string, number>;
}

export interface Claimed {
  rows: ClaimedRow[];
  /**
   * Due rows the claim looked at (taken or not): more than `rows` means some
   * were left for a receiver's cap or the lane's free slots, so another claim
   * may find more.
   */
  seen: number;
}

/** Due rows and the oldest one's wait, by kind. */
export interface DueByKind {
  kind: string;
  due: number;
  oldestDueSeconds: number;
}

const LAST_ERROR_MAX = 2000;
/** A claim looks at up to this many times the rows it may take, so receivers at their cap do not hide the others. */
const SCAN_FACTOR = 4;

/**
 * A lane's kinds as a condition on $3. One kind is an equality, so the index
 * on (kind, available_at) hands the rows over oldest first and the claim
 * stops at its limit however long the backlog.
 */
function kindCondition(kinds: LaneKinds): { filter: string; param: string | string[] } {
  if ('except' in kinds) return { filter: 'kind <> ALL($3::text[])', param: kinds.except };
  if (kinds.only.length === 1) return { filter: 'kind = $3::text', param: kinds.only[0] };
  return { filter: 'kind = ANY($3::text[])', param: kinds.only };
}

/** The worker's SQL on the outbox table. */
@Injectable()
export class OutboxRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Claims up to `take` due rows of a lane in one short statement. The due
   * rows are locked with SKIP LOCKED (so two replicas never take the same
   * row), skipping receivers already at their cap in this process; of those,
   * each receiver gets only the slots it has left, oldest rows first. The
   * rows taken are counted as one more attempt and leased until
   * `leaseUntil`; the lock ends with the statement, and the lease keeps other
   * replicas away while this one delivers (renewed while it does). If the
   * process dies mid-delivery, the row is due again when the lease ends
   * (at-least-once). Only rows the lane can start at once are claimed.
   *
   * "Due" is by the service clock (tests move it for back-off) or by the
   * database clock, whichever is later: a row enqueued a moment ago carries
   * the database's microsecond now(), which a millisecond clock may not
   * have reached yet.
   */
  async claimDue(now: Date, leaseUntil: Date, request: ClaimRequest): Promise<Claimed> {
    const { filter: kindFilter, param: kinds } = kindCondition(request.kinds);
    const receivers = [...request.busy.keys()];
    const counts = receivers.map((receiver) => request.busy.get(receiver)!);
    // TypeORM answers an UPDATE … RETURNING with [rows, affected count].
    const [rows]: [
      Array<{
        uuid: string;
        kind: OutboxKind;
        payload: Record<string, unknown>;
        attempts: number;
        created_at: Date;
        receiver: string | null;
        seen: number;
      }>,
      number,
    ] = await this.dataSource.query(
      `WITH busy AS (
         SELECT * FROM unnest($4::text[], $5::int[]) AS b(receiver, in_flight)
       ), due AS (
         SELECT uuid, receiver, available_at FROM outbox
          WHERE status = 'pending' AND ${kindFilter}
            AND available_at <= GREATEST($1, now())
            AND (receiver IS NULL OR receiver NOT IN
                   (SELECT receiver FROM busy WHERE in_flight >= $6))
          ORDER BY available_at
          LIMIT $7
          FOR UPDATE SKIP LOCKED
       ), startable AS (
         SELECT due.uuid, due.available_at,
                due.receiver IS NULL
                  OR row_number() OVER (PARTITION BY due.receiver ORDER BY due.available_at, due.uuid)
                     <= $6 - COALESCE(busy.in_flight, 0) AS fits
           FROM due LEFT JOIN busy ON busy.receiver = due.receiver
       ), taken AS (
         SELECT uuid FROM startable WHERE fits ORDER BY available_at LIMIT $8
       )
       UPDATE outbox o
          SET attempts = o.attempts + 1, available_at = $2
         FROM taken
        WHERE o.uuid = taken.uuid
      RETURNING o.uuid, o.kind, o.payload, o.attempts, o.created_at, o.receiver,
                (SELECT count(*) FROM due)::int AS seen`,
      [
        now,
        leaseUntil,
        kinds,
        receivers,
        counts,
        request.perReceiver,
        request.take * SCAN_FACTOR,
        request.take,
      ],
    );
    return {
      rows: rows
        .map((row) => ({
          uuid: row.uuid,
          kind: row.kind,
          payload: row.payload,
          attempts: Number(row.attempts),
          createdAt: new Date(row.created_at),
          receiver: row.receiver,
        }))
        .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime()),
      seen: rows.length === 0 ? 0 : Number(rows[0].seen),
    };
  }

  /**
   * Extends the lease of rows this process claimed and has not finished; a
   * row no longer pending is left alone.
   */
  async renewLeases(uuids: string[], leaseUntil: Date): Promise<void> {
    await this.dataSource.query(
      `UPDATE outbox SET available_at = $2 WHERE uuid = ANY($1::uuid[]) AND status = 'pending'`,
      [uuids, leaseUntil],
    );
  }

  /**
   * Marks a delivered row sent. Deliveries finish many at a time under
   * load: the marks that come while one statement is under way go together
   * in the next (see BatchUnderWay), each resolved once its row is marked.
   */
  markSent(uuid: string, at: Date): Promise<void> {
    return this.sentMarks.add({ uuid, at });
  }

  private readonly sentMarks = new BatchUnderWay<{ uuid: string; at: Date }, void>(
    async (marks) => {
      await this.dataSource.query(
        `UPDATE outbox SET status = 'sent', sent_at = m.at, last_error = NULL
           FROM unnest($1::uuid[], $2::timestamptz[]) AS m(uuid, at)
          WHERE outbox.uuid = m.uuid`,
        [marks.map((mark) => mark.uuid), marks.map((mark) => mark.at)],
      );
      return marks.map(() => undefined);
    },
  );

  async scheduleRetry(uuid: string, availableAt: Date, error: string): Promise<void> {
    await this.dataSource.query(
      `UPDATE outbox SET available_at = $2, last_error = $3 WHERE uuid = $1`,
      [uuid, availableAt, error.slice(0, LAST_ERROR_MAX)],
    );
  }

  /** Gives up: the row stays, with its last error, for someone to look at. */
  async markFailed(uuid: string, error: string): Promise<void> {
    await this.dataSource.query(
      `UPDATE outbox SET status = 'failed', last_error = $2 WHERE uuid = $1`,
      [uuid, error.slice(0, LAST_ERROR_MAX)],
    );
  }

  /** Rows due now (in every process's view) and how long the oldest has been due, by kind. */
  async dueByKind(now: Date): Promise<DueByKind[]> {
    const rows: Array<{ kind: string; due: number; oldest: number }> = await this.dataSource.query(
      `SELECT kind, count(*)::int AS due,
              EXTRACT(EPOCH FROM GREATEST($1, now()) - min(available_at))::float8 AS oldest
         FROM outbox
        WHERE status = 'pending' AND available_at <= GREATEST($1, now())
        GROUP BY kind`,
      [now],
    );
    return rows.map((row) => ({
      kind: row.kind,
      due: Number(row.due),
      oldestDueSeconds: Math.max(0, Number(row.oldest)),
    }));
  }
}
