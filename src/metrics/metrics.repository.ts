import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { fetchAll, queryBuilder, sql, Table } from '../database/query-builder';
import { OutboxEntity } from '../outbox/outbox.entity';

const db = queryBuilder<{ outbox: Table<OutboxEntity> }>();

/** What /metrics counts in the database at scrape time. */
@Injectable()
export class MetricsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Outbox rows waiting to be sent and rows given up on. */
  async countOutboxRows(): Promise<{ pending: number; failed: number }> {
    if (!this.dataSource.isInitialized) return { pending: 0, failed: 0 };
    const rows = await fetchAll(
      this.dataSource.manager,
      db
        .selectFrom('outbox')
        .select(['status', sql<string>`count(*)::text`.as('count')])
        .where('status', 'in', ['pending', 'failed'])
        .groupBy('status'),
    );
    const count = (status: string) => Number(rows.find((row) => row.status === status)?.count ?? 0);
    return { pending: count('pending'), failed: count('failed') };
  }
}
