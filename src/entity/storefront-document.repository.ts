import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { StorefrontAnswerInputs, StorefrontDocument } from './storefront-document';

/** Which stored forms of a document a read fetches (a 304 check fetches neither). */
export interface DocumentForms {
  plain: boolean;
  gzip: boolean;
}

export interface StoredDocument {
  document: StorefrontDocument;
  businessUuid: string;
  menuUuid: string;
}

/** The stored storefront of a URL's two meta_keys, or null when there is none. */
const READ_SQL = `
  SELECT version = built_version AND body IS NOT NULL AS fresh,
         CASE WHEN $3 THEN convert_from(body, 'UTF8') END AS body,
         convert_from(substring(body FROM data_end + 1), 'UTF8') AS suffix,
         CASE WHEN $4 THEN gzip_prefix END AS gzip_prefix,
         data_end, prefix_crc::text AS prefix_crc, etag, answer_inputs,
         business_uuid::text AS business_uuid, menu_uuid::text AS menu_uuid
    FROM storefront_documents
   WHERE business_key = lower($1) AND menu_key = lower($2)`;

/**
 * All SQL of the storefront_documents table: the finished storefront per
 * storefront URL (keyed by the two meta_keys in lower case). A trigger on
 * the entities table marks a row stale in the transaction of every write to
 * one of its records (see the migration CreateStorefrontDocuments), so a
 * fresh row is never older than the last committed write.
 */
@Injectable()
export class StorefrontDocumentRepository {
  constructor(private readonly dataSource: DataSource) {}

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
   * Runs `read` (the build's reads of the records) in one snapshot with the
   * row's version, so the document it makes is exactly as of that version.
   */
  async inSnapshot<T>(
    businessMetaKey: string,
    menuMetaKey: string,
    read: (manager: EntityManager) => Promise<T>,
  ): Promise<{ version: string | null; result: T }> {
    return this.dataSource.transaction('REPEATABLE READ', async (manager) => {
      const rows: Array<{ version: string }> = await manager.query(
        `SELECT version::text AS version FROM storefront_documents
          WHERE business_key = lower($1) AND menu_key = lower($2)`,
        [businessMetaKey, menuMetaKey],
      );
      const version = rows[0]?.version ?? null;
      return { version, result: await read(manager) };
    });
  }

  /**
   * Stores a document built in a snapshot of `version` (null: there was no
   * row). It is stored only while that is still the row's version: a write
   * committed since has bumped it (or created the row), and then the row
   * stays stale for the next reader to rebuild.
   */
  async store(
    businessMetaKey: string,
    menuMetaKey: string,
    version: string | null,
    stored: StoredDocument & { document: { prefix: Buffer; gzipPrefix: Buffer } },
  ): Promise<void> {
    const { document } = stored;
    await this.dataSource.query(
      `INSERT INTO storefront_documents AS d (business_key, menu_key, business_uuid, menu_uuid,
         version, built_version, built_at, body, data_end, gzip_prefix, prefix_crc, etag, answer_inputs)
       VALUES (lower($1), lower($2), $3, $4, 1, 1, now(), $5, $6, $7, $8, $9, $10::jsonb)
       ON CONFLICT (business_key, menu_key) DO UPDATE SET
         business_uuid = EXCLUDED.business_uuid, menu_uuid = EXCLUDED.menu_uuid,
         built_version = d.version, built_at = EXCLUDED.built_at, body = EXCLUDED.body,
         data_end = EXCLUDED.data_end, gzip_prefix = EXCLUDED.gzip_prefix,
         prefix_crc = EXCLUDED.prefix_crc, etag = EXCLUDED.etag,
         answer_inputs = EXCLUDED.answer_inputs
       WHERE d.version = $11::bigint`,
      [
        businessMetaKey,
        menuMetaKey,
        stored.businessUuid,
        stored.menuUuid,
        document.body ?? Buffer.concat([document.prefix, document.suffix]),
        document.prefixLength,
        document.gzipPrefix,
        document.prefixCrc,
        document.etag,
        JSON.stringify(document.answerInputs),
        version,
      ],
    );
  }
}
