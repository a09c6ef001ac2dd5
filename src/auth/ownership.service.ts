import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { ApiError } from '../http/api-error';
import { isUuid } from '../common/uuid';

/** A table whose rows belong to a user through one column. */
export interface OwnedTable {
  table: string;
  idColumn: string;
  ownerColumn: string;
}

const IDENTIFIER = /^[a-z_][a-z0-9_]*$/;

function checked(source: OwnedTable): OwnedTable {
  for (const name of [source.table, source.idColumn, source.ownerColumn]) {
    if (!IDENTIFIER.test(name)) throw new Error(`Not an identifier: ${name}`);
  }
  return source;
}

/**
 * Set-based ownership checks for the modules: "which of these ids may this
 * user touch?" in one query, whatever the number of ids.
 */
@Injectable()
export class OwnershipService {
  constructor(private readonly dataSource: DataSource) {}

  async ownedIds(
    source: OwnedTable,
    userUuid: string,
    ids: readonly string[],
    manager: EntityManager = this.dataSource.manager,
  ): Promise<Set<string>> {
    const { table, idColumn, ownerColumn } = checked(source);
    const candidates = [...new Set(ids.filter((id) => isUuid(id)))];
    if (candidates.length === 0) return new Set();
    const rows: Array<{ id: string }> = await manager.query(
      `SELECT "${idColumn}"::text AS id FROM "${table}" WHERE "${ownerColumn}" = $1 AND "${idColumn}" = ANY($2::uuid[])`,
      [userUuid, candidates],
    );
    return new Set(rows.map((row) => row.id));
  }

  /** 404 when the record does not exist, 403 when it belongs to someone else. */
  async assertOwned(
    source: OwnedTable,
    userUuid: string,
    id: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<void> {
    const { table, idColumn, ownerColumn } = checked(source);
    if (!isUuid(id)) throw ApiError.notFound();
    const rows: Array<{ owner: string }> = await manager.query(
      `SELECT "${ownerColumn}"::text AS owner FROM "${table}" WHERE "${idColumn}" = $1`,
      [id],
    );
    if (rows.length === 0) throw ApiError.notFound();
    if (rows[0].owner !== userUuid) throw ApiError.forbidden();
  }
}
