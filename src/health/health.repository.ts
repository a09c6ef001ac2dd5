import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { compileRaw, execute, sql } from '../database/query-builder';

/** The readiness probe's one statement. */
@Injectable()
export class HealthRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Resolves when the database answers a statement. */
  async ping(): Promise<void> {
    await execute(this.dataSource.manager, compileRaw(sql`SELECT 1`));
  }
}
