import { randomInt } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { CoalescedReads } from '../database/coalesced-reads';
import { keepPlan } from '../database/kept-plans';
import { preparedQuery } from '../database/prepared-query';
import { compileRaw, queryBuilder, rowsTable, sql, Table } from '../database/query-builder';
import { writeBeforeCommit } from '../database/writes-before-commit';
import { StorefrontAnswerInputs, StorefrontDocument } from './storefront-document';
import { StorefrontMarkEntity } from './storefront-mark.entity';

/** Which stored forms of a document a read fetches (a 304 check fetches neither). */
export interface DocumentForms {
  plain: boolean;
  gzip: boolean;
}

/** What a fresh stored document's answer ETag is made of, read without any of its bytes. */
export interface StoredEtag {
  etag: string;
  answerInputs: StorefrontAnswerInputs;
  businessUuid: string;
  menuUuid: string;
}

/** What a build read: the row's version (null: no row yet) and the sum of its menu's marks. */
export interface BuiltFrom {
  version: string | null;
  marks: string;
}

export interface StoredDocument {
  document: StorefrontDocument;
  businessUuid: string;
  menuUuid: string;
}

/**
 * Whether a stored storefront is fresh: no write to its records since its
 * build (`version`), and no other change to what it shows (its menu's marks,
 * see StorefrontMarkEntity). `d` is the storefront_documents row.
 */
const FRESH_SQL = `d.version = d.built_version AND d.body IS NOT NULL
  AND d.built_marks = (SELECT coalesce(sum(mark.version), 0) FROM storefront_marks mark
                        WHERE mark.menu_uuid = d.menu_uuid)`;

/** The stored storefront of a URL's two meta_keys, or null when there is none. */
const READ_SQL = `
  SELECT ${FRESH_SQL} AS fresh,
         CASE WHEN $3 THEN convert_from(body, 'UTF8') END AS body,
         convert_from(substring(body FROM data_end + 1), 'UTF8') AS suffix,
         CASE WHEN $4 THEN gzip_prefix END AS gzip_prefix,
         data_end, prefix_crc::text AS prefix_crc, etag, answer_inputs,
         business_uuid::text AS business_uuid, menu_uuid::text AS menu_uuid
    FROM storefront_documents d
   WHERE business_key = lower($1) AND menu_key = lower($2)`;

/**
 * The ETag parts of the fresh stored documents of several URLs at once
 * (`$1` and `$2` are the pairs of meta_keys); a URL with no fresh document
 * has no row. Each pair is one primary-key read (the LIMIT keeps it
 * apart, whatever the planner knows of the table).
 */
const READ_ETAGS_SQL = `
  SELECT k.b AS business_key, k.m AS menu_key, d.etag, d.answer_inputs,
         d.business_uuid::text AS business_uuid, d.menu_uuid::text AS menu_uuid
    FROM unnest($1::text[], $2::text[]) AS k(b, m)
   CROSS JOIN LATERAL (
     SELECT d.etag, d.answer_inputs, d.business_uuid, d.menu_uuid FROM storefront_documents d
      WHERE d.business_key = lower(k.b) AND d.menu_key = lower(k.m) AND ${FRESH_SQL}
      LIMIT 1) d`;

/**
 * How many rows of marks a menu has: changes that commit side by side lock
 * one of them each, at random, so they seldom wait for each other; a read
 * of a storefront sums at most this many.
 */
export const MARK_SHARDS = 16;

const db = queryBuilder<{ storefrontMarks: Table<StorefrontMarkEntity, 'version'> }>();

/** Raises one mark row of each menu (prepared): made at version 1 when the row is new. */
const raiseMarks = preparedQuery(
  ({ marks }: { marks: Array<{ menuUuid: string; shard: number }> }) =>
    db
      .insertInto('storefrontMarks')
      .columns(['menuUuid', 'shard'])
      .expression((eb) =>
        eb
          .selectFrom(rowsTable(marks, { menuUuid: 'uuid', shard: 'smallint' }, 'm'))
          .select(['m.menuUuid', 'm.shard'])
          .orderBy('m.menuUuid'),
      )
      .onConflict((conflict) =>
        conflict
          .columns(['menuUuid', 'shard'])
          .doUpdateSet({ version: sql<string>`storefront_marks.version + 1` }),
      ),
);

interface StoredEtagRow {
  business_key: string;
  menu_key: string;
  etag: string;
  answer_inputs: StorefrontAnswerInputs;
  business_uuid: string;
  menu_uuid: string;
}

/**
 * All SQL of the storefront_documents table: the finished storefront per
 * storefront URL (keyed by the two meta_keys in lower case). A trigger on
 * the entities table marks a row stale in the transaction of every write to
 * one of its records (see the migration CreateStorefrontDocuments), so a
 * fresh row is never older than the last committed write.
 */
@Injectable()
export class StorefrontDocumentRepository {
  /** ETag checks that arrive together share one statement (see CoalescedReads). */
  private readonly etagReads = new CoalescedReads((keys) => this.readEtags(keys));

  constructor(private readonly dataSource: DataSource) {}

  /**
   * What the current answer's ETag is made of, when the stored document is
   * fresh; null when there is none or it is stale. Reads no bytes of it.
   */
  async readEtag(businessMetaKey: string, menuMetaKey: string): Promise<StoredEtag | null> {
    return (await this.etagReads.read(JSON.stringify([businessMetaKey, menuMetaKey]))) ?? null;
  }

  private async readEtags(keys: string[]): Promise<Map<string, StoredEtag>> {
    const pairs = keys.map((key) => JSON.parse(key) as [string, string]);
    const rows: Array<StoredEtagRow> = await this.dataSource.query(READ_ETAGS_SQL, [
      pairs.map((pair) => pair[0]),
      pairs.map((pair) => pair[1]),
    ]);
    return new Map(
      rows.map((row) => [
        JSON.stringify([row.business_key, row.menu_key]),
        {
          etag: row.etag,
          answerInputs: row.answer_inputs,
          businessUuid: row.business_uuid,
          menuUuid: row.menu_uuid,
        },
      ]),
    );
  }

  /** The stored document when it is fresh; null when there is none or it is stale. */
  async readFresh(
    businessMetaKey: string,
    menuMetaKey: string,
    forms: DocumentForms,
  ): Promise<StoredDocument | null> {
    const rows: Array<Record<string, unknown>> = await this.dataSource.query(READ_SQL, [
      businessMetaKey,
      menuMetaKey,
      forms.plain,
      forms.gzip,
    ]);
    const row = rows[0];
    if (!row || row.fresh !== true) return null;
    const body = row.body === null ? undefined : Buffer.from(row.body as string);
    return {
      document: {
        body,
        prefix: body?.subarray(0, row.data_end as number),
        suffix: Buffer.from(row.suffix as string),
        gzipPrefix: (row.gzip_prefix as Buffer | null) ?? undefined,
        prefixCrc: Number(row.prefix_crc),
        prefixLength: row.data_end as number,
        etag: row.etag as string,
        answerInputs: row.answer_inputs as StorefrontAnswerInputs,
      },
      businessUuid: row.business_uuid as string,
      menuUuid: row.menu_uuid as string,
    };
  }

  /**
   * Marks the stored storefronts of these menus stale: adds 1 to one of
   * each menu's mark rows, chosen at random (see StorefrontMarkEntity), so
   * that a build which read the menu before the change can never be read
   * as fresh. Held for the commit of the change's transaction
   * (writeBeforeCommit): the mark commits with the change, with no round
   * trip of its own, and its row stays locked only from the held writes to
   * the commit. Outside such a transaction it is sent at once.
   */
  async markMenusStale(manager: EntityManager, menuUuids: readonly string[]): Promise<void> {
    if (menuUuids.length === 0) return;
    // In menu order, so two changes of the same menus never wait for each other crosswise.
    const marks = [...new Set(menuUuids)]
      .sort()
      .map((menuUuid) => ({ menuUuid, shard: randomInt(MARK_SHARDS) }));
    // Rows upserted by their keys: its plan may be kept.
    await writeBeforeCommit(manager, keepPlan(raiseMarks({ marks })));
  }

  /**
   * Runs `read` (the build's reads of the records) in one snapshot with the
   * row's version and the sum of the menu's marks (`menuOf` names the menu
   * the reads found), so the document it makes is exactly as of both.
   */
  async inSnapshot<T>(
    businessMetaKey: string,
    menuMetaKey: string,
    read: (manager: EntityManager) => Promise<T>,
    menuOf: (result: T) => string,
  ): Promise<{ built: BuiltFrom; result: T }> {
    return this.dataSource.transaction('REPEATABLE READ', async (manager) => {
      const rows: Array<{ version: string }> = await manager.query(
        `SELECT version::text AS version FROM storefront_documents
          WHERE business_key = lower($1) AND menu_key = lower($2)`,
        [businessMetaKey, menuMetaKey],
      );
      const result = await read(manager);
      const marks: Array<{ marks: string }> = await manager.query(
        `SELECT coalesce(sum(version), 0)::text AS marks FROM storefront_marks WHERE menu_uuid = $1`,
        [menuOf(result)],
      );
      return { built: { version: rows[0]?.version ?? null, marks: marks[0].marks }, result };
    });
  }

  /**
   * Stores a document built in the snapshot of `built`. It is stored only
   * while its version is still the row's (null: there was no row): a write
   * committed since has bumped it (or created the row), and then the row
   * stays stale for the next reader to rebuild. A mark committed since
   * leaves it stored but stale (its sum of marks is no longer the menu's).
   */
  async store(
    businessMetaKey: string,
    menuMetaKey: string,
    built: BuiltFrom,
    stored: StoredDocument & { document: { prefix: Buffer; gzipPrefix: Buffer } },
  ): Promise<void> {
    const { document } = stored;
    const body = document.body ?? Buffer.concat([document.prefix, document.suffix]);
    const insert = compileRaw(sql`INSERT INTO storefront_documents AS d (business_key, menu_key,
         business_uuid, menu_uuid, version, built_version, built_marks, built_at, body, data_end,
         gzip_prefix, prefix_crc, etag, answer_inputs)
       VALUES (lower(${businessMetaKey}), lower(${menuMetaKey}), ${stored.businessUuid},
         ${stored.menuUuid}, 1, 1, ${built.marks}::bigint, now(), ${body}, ${document.prefixLength},
         ${document.gzipPrefix}, ${document.prefixCrc}, ${document.etag},
         ${JSON.stringify(document.answerInputs)}::jsonb)
       ON CONFLICT (business_key, menu_key) DO UPDATE SET
         business_uuid = EXCLUDED.business_uuid, menu_uuid = EXCLUDED.menu_uuid,
         built_version = d.version, built_marks = EXCLUDED.built_marks,
         built_at = EXCLUDED.built_at, body = EXCLUDED.body,
         data_end = EXCLUDED.data_end, gzip_prefix = EXCLUDED.gzip_prefix,
         prefix_crc = EXCLUDED.prefix_crc, etag = EXCLUDED.etag,
         answer_inputs = EXCLUDED.answer_inputs
       WHERE d.version = ${built.version}::bigint`);
    await this.dataSource.query(insert.sql, [...insert.parameters]);
  }
}
