import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { execute, fetchOne, queryBuilder, Table } from '../database/query-builder';
import { AvailabilityChangeEntity } from './availability-change.entity';

const db = queryBuilder<{
  businessAvailabilityChanges: Table<AvailabilityChangeEntity, 'uuid'>;
}>();

/** The record of availability changes: one row per change. */
@Injectable()
export class AvailabilityRepository {
  constructor(private readonly dataSource: DataSource) {}

  async record(
    manager: EntityManager,
    change: Omit<AvailabilityChangeEntity, 'uuid'>,
  ): Promise<void> {
    await execute(manager, db.insertInto('businessAvailabilityChanges').values(change));
  }

  /** The newest change of a business's availability, if any. */
  async latest(
    businessUuid: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<AvailabilityChangeEntity | undefined> {
    return fetchOne(
      manager,
      db
        .selectFrom('businessAvailabilityChanges')
        .selectAll()
        .where('businessUuid', '=', businessUuid)
        .orderBy('changedAt', 'desc')
        .orderBy('uuid', 'desc')
        .limit(1),
    );
  }
}
