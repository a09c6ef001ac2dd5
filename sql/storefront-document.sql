-- storefront-document: StorefrontDocumentRepository.readFresh: the stored storefront of a URL.
-- Written by `npm run sync:sql` from the repository's code; do not edit.

-- statement 1 of 1
  SELECT d.version = d.built_version AND d.body IS NOT NULL
  AND d.built_marks = (SELECT coalesce(sum(mark.version), 0) FROM storefront_marks mark
                        WHERE mark.menu_uuid = d.menu_uuid) AS fresh,
         CASE WHEN $3 THEN convert_from(body, 'UTF8') END AS body,
         convert_from(substring(body FROM data_end + 1), 'UTF8') AS suffix,
         CASE WHEN $4 THEN gzip_prefix END AS gzip_prefix,
         data_end, prefix_crc::text AS prefix_crc, etag, answer_inputs,
         business_uuid::text AS business_uuid, menu_uuid::text AS menu_uuid
    FROM storefront_documents d
   WHERE business_key = lower($1) AND menu_key = lower($2);
