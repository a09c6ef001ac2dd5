import { jsonb, queryBuilder, Table } from '../database/query-builder';
import { writeBeforeCommit } from '../database/writes-before-commit';
import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager, LessThan } from 'typeorm';
import { IdempotencyKeyEntity } from './entities';

const db = queryBuilder<{ idempotencyKeys: Table<IdempotencyKeyEntity> }>();

/** All SQL of idempotency keys. */
@Injectable()
export class IdempotencyRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Takes the key for this transaction: inserts it, or takes over a row older
   * than `expiredBefore`. While another transaction holds an uncommitted row
   * for the same key, PostgreSQL makes this insert wait until that one ends;
   * then it either finds the committed row (false: the caller replays or
   * refuses) or, if that transaction rolled back, inserts (true).
   */
  async claim(
    manager: EntityManager,
    scope: string,
    key: string,
    requestHash: string,
    now: Date,
    expiredBefore: Date,
  ): Promise<boolean> {
    const rows: unknown[] = await manager.query(
      `INSERT INTO idempotency_keys (scope, key, request_hash, created_at)
       VALUES ($1, $2, $3, $4)
       ON CONFLICT (scope, key) DO UPDATE
         SET request_hash = EXCLUDED.request_hash, created_at = EXCLUDED.created_at,
             response_status = NULL, response_body = NULL, resource_uuid = NULL
         WHERE idempotency_keys.created_at < $5
       RETURNING key`,
      [scope, key, requestHash, now, expiredBefore],
    );
    return rows.length > 0;
  }

  async find(
    manager: EntityManager,
    scope: string,
    key: string,
  ): Promise<IdempotencyKeyEntity | null> {
    return manager.findOneBy(IdempotencyKeyEntity, { scope, key });
  }

  /** Stores the first answer, in the transaction that produced it. */
  async complete(
    manager: EntityManager,
    scope: string,
    key: string,
    answer: { status: number; body: unknown; resourceUuid: string },
  ): Promise<void> {
    await writeBeforeCommit(
      manager,
      db
        .updateTable('idempotencyKeys')
        .set({
          responseStatus: answer.status,
          responseBody: jsonb(answer.body),
          resourceUuid: answer.resourceUuid,
        })
        .where('scope', '=', scope)
        .where('key', '=', key),
    );
  }

  /** Drops keys past their window; returns how many. */
  async purgeOlderThan(before: Date): Promise<number> {
    const result = await this.dataSource.manager.delete(IdempotencyKeyEntity, {
      createdAt: LessThan(before),
    });
    return result.affected ?? 0;
  }
}
