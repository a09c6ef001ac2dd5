-- list-page-guest: EntityRepository.list: a guest's page of a menu's items by sort_position, with the menu's version.
-- Written by `npm run sync:sql` from the repository's code; do not edit.

-- statement 1 of 1
SELECT e.uuid, e.entity_type, e.request_id, e.slug, e.meta_key, e.meta_value,
  e.title_name, e.description, e.entity_featured_url, e.status, e.owned_by, e.updated_by,
  e.parent_entity_type, e.parent_entity_uuid, e.extra_data,
  to_char(e.trashed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS trashed_at, to_char(e.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS created_at,
  to_char(e.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS updated_at, (SELECT ARRAY[count(*)::text, coalesce((SELECT v.version FROM entity_children_versions v
    WHERE v.parent_uuid = $5::uuid), 0)::text] FROM entities e
WHERE e.entity_type = $4 AND e.trashed_at IS NULL AND (e.status = 'enabled' AND e.trashed_at IS NULL AND EXISTS (SELECT 1 FROM (SELECT a.uuid, a.parent_entity_uuid, a.entity_type, a.status, a.trashed_at
    FROM entities a WHERE a.uuid = $1 OFFSET 0) a1 JOIN LATERAL (SELECT a.uuid, a.parent_entity_uuid, a.entity_type, a.status, a.trashed_at
    FROM entities a WHERE a.uuid = a1.parent_entity_uuid OFFSET 0) a2 ON true WHERE a1.entity_type = $2 AND a1.status = 'enabled' AND a1.trashed_at IS NULL AND a2.entity_type = $3 AND a2.status = 'enabled' AND a2.trashed_at IS NULL)) AND e.parent_entity_uuid = $1) AS summary
         FROM entities e
WHERE e.entity_type = $4 AND e.trashed_at IS NULL AND (e.status = 'enabled' AND e.trashed_at IS NULL AND EXISTS (SELECT 1 FROM (SELECT a.uuid, a.parent_entity_uuid, a.entity_type, a.status, a.trashed_at
    FROM entities a WHERE a.uuid = $1 OFFSET 0) a1 JOIN LATERAL (SELECT a.uuid, a.parent_entity_uuid, a.entity_type, a.status, a.trashed_at
    FROM entities a WHERE a.uuid = a1.parent_entity_uuid OFFSET 0) a2 ON true WHERE a1.entity_type = $2 AND a1.status = 'enabled' AND a1.trashed_at IS NULL AND a2.entity_type = $3 AND a2.status = 'enabled' AND a2.trashed_at IS NULL)) AND e.parent_entity_uuid = $1 ORDER BY CASE WHEN jsonb_typeof(e.extra_data -> $6::text) = 'number' THEN (e.extra_data ->> $6::text)::numeric WHEN (e.extra_data ->> $6::text) ~ '^-?[0-9]{1,100}([.][0-9]{1,100})?$' THEN (e.extra_data ->> $6::text)::numeric END ASC NULLS LAST, (e.extra_data ->> $6::text) ASC NULLS LAST, e.created_at ASC, e.uuid ASC LIMIT $7 OFFSET $8;
