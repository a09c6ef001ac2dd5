-- report-items: ReportRepository.items: a month's top items from the rollups.
-- Written by `npm run sync:sql` from the repository's code; do not edit.

-- statement 1 of 4
SELECT set_config('TimeZone', $1, true), set_config('work_mem', '32MB', true),
                set_config('jit', 'off', true);

-- statement 2 of 4
  WITH p AS (
    SELECT $1::date::timestamptz AS first, ($2::date + 1)::timestamptz AS after
  ), u AS (
    SELECT first, after, date_trunc('day', after, 'UTC') AS fe,
           CASE WHEN date_trunc('day', first, 'UTC') = first THEN first
                ELSE date_trunc('day', first, 'UTC') + interval '24 hours' END AS fs
      FROM p
  ), f AS (
    SELECT CASE WHEN fs < fe THEN fs ELSE after END AS fs,
           CASE WHEN fs < fe THEN fe ELSE after END AS fe
      FROM u
  )
  SELECT to_char(f.fs AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS+00') AS full_first,
         to_char(f.fe AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS+00') AS full_after,
         to_char(f.fs AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS first_day,
         to_char(f.fe AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS after_day,
         (SELECT COALESCE(bool_and(extract(timezone FROM h)::int % 900 = 0), true)
            FROM p, generate_series(p.first, p.after, interval '1 hour') AS h) AS aligned
    FROM f;

-- statement 3 of 4
SELECT report_rollups_fold($1::uuid);

-- statement 4 of 4
  WITH edge AS MATERIALIZED (
    SELECT l.item_uuid, o.uuid AS order_uuid, o.created_at, l.title_name, l.quantity,
           l.line_total, l.options
      FROM (
  SELECT * FROM orders
   WHERE business_uuid = $1 AND created_at >= $2::date::timestamptz AND created_at < $4::timestamptz
  UNION ALL
  SELECT * FROM orders
   WHERE business_uuid = $1 AND created_at >= $5::timestamptz AND created_at < ($3::date + 1)::timestamptz
) AS o
      JOIN order_lines l ON l.order_uuid = o.uuid
     WHERE o.status IN ('accepted', 'preparing', 'ready', 'out_for_delivery', 'completed')
       AND lower(btrim(COALESCE(l.category, ''))) <> 'delivery'
  ), sold AS MATERIALIZED (
    SELECT r.item_uuid, r.title_name, r.quantity, r.revenue, r.orders, r.last_at
      FROM report_item_days r
     WHERE r.business_uuid = $1 AND r.day >= $6::date AND r.day < $7::date AND r.orders > 0
    UNION ALL
    SELECT item_uuid, (array_agg(title_name ORDER BY title_name DESC NULLS FIRST))[1],
           sum(quantity), sum(line_total), 1, created_at
      FROM edge
     GROUP BY item_uuid, order_uuid, created_at
  ), top AS (
    SELECT item_uuid, sum(quantity) AS quantity, sum(revenue)::numeric(20,2) AS revenue,
           sum(orders)::int AS orders
      FROM sold
     GROUP BY item_uuid
     ORDER BY revenue DESC, quantity DESC, item_uuid
     LIMIT $8
  ), titles AS (
    SELECT DISTINCT ON (s.item_uuid) s.item_uuid, s.title_name
      FROM sold s
      JOIN top t ON t.item_uuid = s.item_uuid
     ORDER BY s.item_uuid, s.last_at DESC, s.title_name DESC
  ), period_options AS MATERIALIZED (
    SELECT r.item_uuid, r."group", r.option, r.option_title, r.count, r.last_at
      FROM report_option_days r
     WHERE r.business_uuid = $1 AND r.day >= $6::date AND r.day < $7::date AND r.lines > 0
    UNION ALL
    SELECT e.item_uuid, opt->>'group', opt->>'option', opt->>'option_title', e.quantity,
           e.created_at
      FROM edge e
     CROSS JOIN LATERAL jsonb_array_elements(
             CASE WHEN jsonb_typeof(e.options) = 'array' THEN e.options ELSE '[]'::jsonb END) AS opt
  ), chosen AS (
    SELECT p.item_uuid, p."group", p.option,
           (array_agg(p.option_title ORDER BY p.last_at DESC, p.option_title DESC))[1]
             AS option_title,
           sum(p.count) AS count
      FROM period_options p
      JOIN top t ON t.item_uuid = p.item_uuid
     GROUP BY p.item_uuid, p."group", p.option
  ), options AS (
    SELECT item_uuid, json_agg(json_build_object('group', "group", 'option', option,
                                 'option_title', option_title, 'count', count)
                                 ORDER BY count DESC, "group", option) AS options
      FROM chosen
     GROUP BY item_uuid
  )
  SELECT t.item_uuid::text AS item_uuid, n.title_name, t.quantity::text AS quantity,
         t.revenue::text AS revenue, t.orders, COALESCE(c.options, '[]'::json) AS options
    FROM top t
    JOIN titles n ON n.item_uuid = t.item_uuid
    LEFT JOIN options c ON c.item_uuid = t.item_uuid
   ORDER BY t.revenue DESC, t.quantity DESC, t.item_uuid;
