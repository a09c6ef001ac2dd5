import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { OutboxKind } from './outbox.entity';

export interface ClaimedRow {
  uuid: string;
  kind: OutboxKind;
  payload: Record<string, unknown>;
  /** Attempts including the one just claimed. */
  attempts: number;
  createdAt: Date;
}

const LAST_ERROR_MAX = 2000;

/** The worker's SQL on the outbox table. */
@Injectable()
export class OutboxRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Claims up to `limit` due rows in one short statement: the rows are locked
   * with SKIP LOCKED (so two replicas never take the same row), counted as
   * one more attempt and leased until `leaseUntil`; the lock ends with the
   * statement, and the lease keeps other replicas away while this one
   * delivers. If the process dies mid-delivery the row is due again when the
   * lease ends (at-least-once).
   *
   * "Due" is by the service clock (tests move it for back-off) or by the
   * database clock, whichever is later: a row enqueued a moment ago carries
   * the database's microsecond now(), which a millisecond clock may not
   * have reached yet.
   */
  async claimDue(now: Date, leaseUntil: Date, limit: number): Promise<ClaimedRow[]> {
    // TypeORM answers an UPDATE … RETURNING with [rows, affected count].
    const [rows]: [
      Array<{
        uuid: string;
        kind: OutboxKind;
        payload: Record<string, unknown>;
        attempts: number;
        created_at: Date;
      }>,
      number,
    ] = await this.dataSource.query(
      `UPDATE outbox o
          SET attempts = o.attempts + 1, available_at = $2
         FROM (SELECT uuid FROM outbox
                WHERE status = 'pending' AND available_at <= GREATEST($1, now())
                ORDER BY available_at
                LIMIT $3
                FOR UPDATE SKIP LOCKED) due
        WHERE o.uuid = due.uuid
      RETURNING o.uuid, o.kind, o.payload, o.attempts, o.created_at`,
      [now, leaseUntil, limit],
    );
    return rows
      .map((row) => ({
        uuid: row.uuid,
        kind: row.kind,
        payload: row.payload,
        attempts: Number(row.attempts),
        createdAt: new Date(row.created_at),
      }))
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
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

  async markSent(uuid: string, at: Date): Promise<void> {
    await this.dataSource.query(
      `UPDATE outbox SET status = 'sent', sent_at = $2, last_error = NULL WHERE uuid = $1`,
      [uuid, at],
    );
  }

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
}
