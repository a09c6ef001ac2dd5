-- list-page-team: EntityRepository.list: a team member's page of a business's menus, newest first, with the fingerprint.
-- Written by `npm run sync:sql` from the repository's code; do not edit.

-- statement 1 of 1
SELECT e.uuid, e.entity_type, e.request_id, e.slug, e.meta_key, e.meta_value,
  e.title_name, e.description, e.entity_featured_url, e.status, e.owned_by, e.updated_by,
  e.parent_entity_type, e.parent_entity_uuid, e.extra_data,
  to_char(e.trashed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS trashed_at, to_char(e.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS created_at,
  to_char(e.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS updated_at, (e.parent_entity_uuid = ANY($6::uuid[])) AS member_row, (SELECT ARRAY[count(*)::text, coalesce(bit_xor(uuid_hash_extended(e.uuid,
  timestamp_hash_extended(e.updated_at AT TIME ZONE 'UTC', 0))), 0)::text] FROM entities e
WHERE e.entity_type = $3 AND e.trashed_at IS NULL AND (e.owned_by = $4 OR e.parent_entity_uuid = ANY($5::uuid[]) OR (e.status = 'enabled' AND e.trashed_at IS NULL AND EXISTS (SELECT 1 FROM (SELECT a.uuid, a.parent_entity_uuid, a.entity_type, a.status, a.trashed_at
    FROM entities a WHERE a.uuid = $1 OFFSET 0) a1 WHERE a1.entity_type = $2 AND a1.status = 'enabled' AND a1.trashed_at IS NULL))) AND e.parent_entity_uuid = $1) AS summary
         FROM entities e
WHERE e.entity_type = $3 AND e.trashed_at IS NULL AND (e.owned_by = $4 OR e.parent_entity_uuid = ANY($5::uuid[]) OR (e.status = 'enabled' AND e.trashed_at IS NULL AND EXISTS (SELECT 1 FROM (SELECT a.uuid, a.parent_entity_uuid, a.entity_type, a.status, a.trashed_at
    FROM entities a WHERE a.uuid = $1 OFFSET 0) a1 WHERE a1.entity_type = $2 AND a1.status = 'enabled' AND a1.trashed_at IS NULL))) AND e.parent_entity_uuid = $1 ORDER BY e.created_at DESC, e.uuid DESC LIMIT $7 OFFSET $8;
