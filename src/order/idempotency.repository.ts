import { execute, fetchAll, fetchOne, jsonb, queryBuilder, Table } from '../database/query-builder';
import { keepPlan } from '../database/kept-plans';
import { preparedQuery } from '../database/prepared-query';
import { writeBeforeCommit } from '../database/writes-before-commit';
import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { IdempotencyKeyEntity } from './entities';

const db = queryBuilder<{ idempotencyKeys: Table<IdempotencyKeyEntity> }>();

/** A key's claim: its insert, or the take-over of an expired row (every keyed order sends it). */
const claimKey = preparedQuery(
  ({
    expiredBefore,
    ...row
  }: {
    scope: string;
    key: string;
    requestHash: string;
    createdAt: Date;
    expiredBefore: Date;
  }) =>
    db
      .insertInto('idempotencyKeys')
      .values({ ...row, responseStatus: null, responseBody: null, resourceUuid: null })
      .onConflict((conflict) =>
        conflict
          .columns(['scope', 'key'])
          .doUpdateSet((eb) => ({
            requestHash: eb.ref('excluded.requestHash'),
            createdAt: eb.ref('excluded.createdAt'),
            responseStatus: null,
            responseBody: null,
            resourceUuid: null,
          }))
          .where('idempotencyKeys.createdAt', '<', expiredBefore),
      )
      .returning('key'),
);

/** The first answer kept with its key. */
const storeAnswer = preparedQuery(
  (answer: { scope: string; key: string; status: number; body: unknown; resourceUuid: string }) =>
    db
      .updateTable('idempotencyKeys')
      .set({
        responseStatus: answer.status,
        responseBody: jsonb(answer.body),
        resourceUuid: answer.resourceUuid,
      })
      .where('scope', '=', answer.scope)
      .where('key', '=', answer.key),
);

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
    const rows = await fetchAll(
      manager,
      claimKey({ scope, key, requestHash, createdAt: now, expiredBefore }),
    );
    return rows.length > 0;
  }

  async find(
    manager: EntityManager,
    scope: string,
    key: string,
  ): Promise<IdempotencyKeyEntity | null> {
    const row = await fetchOne(
      manager,
      db
        .selectFrom('idempotencyKeys')
        .selectAll()
        .where('scope', '=', scope)
        .where('key', '=', key),
    );
    return row ?? null;
  }

  /** Stores the first answer, in the transaction that produced it. */
  async complete(
    manager: EntityManager,
    scope: string,
    key: string,
    answer: { status: number; body: unknown; resourceUuid: string },
  ): Promise<void> {
    // The key's row changed by its key: its plan may be kept.
    await writeBeforeCommit(
      manager,
      keepPlan(
        storeAnswer({
          scope,
          key,
          status: answer.status,
          body: answer.body,
          resourceUuid: answer.resourceUuid,
        }),
      ),
    );
  }

  /** Drops keys past their window; returns how many. */
  async purgeOlderThan(before: Date): Promise<number> {
    return execute(
      this.dataSource.manager,
      db.deleteFrom('idempotencyKeys').where('createdAt', '<', before),
    );
  }
}
