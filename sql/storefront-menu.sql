-- storefront-menu: StorefrontRepository.findPublicChildByMetaKey: the menu of a storefront URL.
-- Written by `npm run sync:sql` from the repository's code; do not edit.

-- statement 1 of 1
SELECT e.uuid, e.entity_type, e.request_id, e.slug, e.meta_key, e.meta_value,
  e.title_name, e.description, e.entity_featured_url, e.status, e.owned_by, e.updated_by,
  e.parent_entity_type, e.parent_entity_uuid, e.extra_data, e.trashed_at,
  e.created_at, e.updated_at FROM entities e
       WHERE e.parent_entity_uuid = $1 AND e.entity_type = $2 AND lower(e.meta_key) = lower($3)
         AND e.meta_key IS NOT NULL AND e.trashed_at IS NULL AND e.status = 'enabled'
       ORDER BY e.created_at, e.uuid LIMIT 1;
