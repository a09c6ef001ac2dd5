-- report-sales: ReportRepository.sales: a month by day from the rollups.
-- Written by `npm run sync:sql` from the repository's code; do not edit.

-- statement 1 of 5
SELECT set_config('TimeZone', $1, true), set_config('work_mem', '32MB', true),
                set_config('jit', 'off', true);

-- statement 2 of 5
SELECT to_char(d, 'YYYY-MM-DD') AS key, to_char(d, 'YYYY-MM-DD') AS label,
               to_char(d::timestamptz, 'YYYY-MM-DD"T"HH24:MI:SSTZH:TZM') AS start
          FROM generate_series($1::date::timestamp, $2::date::timestamp, interval '1 day') AS d
         ORDER BY d;

-- statement 3 of 5
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

-- statement 4 of 5
SELECT report_rollups_fold($1::uuid);

-- statement 5 of 5
    SELECT CASE WHEN GROUPING(s.k) = 0 THEN 'bucket' ELSE 'total' END AS grouping,
           to_char(s.k, 'YYYY-MM-DD') AS key,
  COALESCE(sum(s.sale_orders), 0)::int AS orders,
  COALESCE(sum(s.open_orders), 0)::int AS open_orders,
  COALESCE(sum(s.lost_orders), 0)::int AS lost_orders,
  COALESCE(sum(s.items_subtotal), 0)::numeric(20,2) AS items_subtotal,
COALESCE(sum(s.discount), 0)::numeric(20,2) AS discount,
COALESCE(sum(s.service_charge), 0)::numeric(20,2) AS service_charge,
COALESCE(sum(s.tax), 0)::numeric(20,2) AS tax,
COALESCE(sum(s.tip), 0)::numeric(20,2) AS tip,
COALESCE(sum(s.delivery_fee), 0)::numeric(20,2) AS delivery_fee,
COALESCE(sum(s.amount), 0)::numeric(20,2) AS total,
COALESCE(sum(s.amount_refunded), 0)::numeric(20,2) AS refunded,
  COALESCE(sum(s.amount) - sum(s.amount_refunded), 0)::numeric(20,2) AS net,
  COALESCE(round(sum(s.amount) / NULLIF(sum(s.sale_orders), 0), 2), 0)::numeric(20,2)
    AS average_order
      FROM (SELECT r.slot::date AS k, r.*
              FROM report_sales_slots r
             WHERE r.business_uuid = $1 AND r.slot >= $2::date::timestamptz
               AND r.slot < ($3::date + 1)::timestamptz) AS s
     GROUP BY GROUPING SETS ((s.k), ())
    UNION ALL
    SELECT CASE WHEN GROUPING(s.payment_processor) = 0 THEN 'processor' ELSE 'fulfilment' END,
           COALESCE(s.payment_processor, s.fulfilment_type),
  COALESCE(sum(s.sale_orders), 0)::int AS orders,
  COALESCE(sum(s.open_orders), 0)::int AS open_orders,
  COALESCE(sum(s.lost_orders), 0)::int AS lost_orders,
  COALESCE(sum(s.items_subtotal), 0)::numeric(20,2) AS items_subtotal,
COALESCE(sum(s.discount), 0)::numeric(20,2) AS discount,
COALESCE(sum(s.service_charge), 0)::numeric(20,2) AS service_charge,
COALESCE(sum(s.tax), 0)::numeric(20,2) AS tax,
COALESCE(sum(s.tip), 0)::numeric(20,2) AS tip,
COALESCE(sum(s.delivery_fee), 0)::numeric(20,2) AS delivery_fee,
COALESCE(sum(s.amount), 0)::numeric(20,2) AS total,
COALESCE(sum(s.amount_refunded), 0)::numeric(20,2) AS refunded,
  COALESCE(sum(s.amount) - sum(s.amount_refunded), 0)::numeric(20,2) AS net,
  COALESCE(round(sum(s.amount) / NULLIF(sum(s.sale_orders), 0), 2), 0)::numeric(20,2)
    AS average_order
      FROM (SELECT r.payment_processor, r.fulfilment_type, r.sale_orders, r.open_orders, r.lost_orders, r.items_subtotal, r.discount, r.service_charge, r.tax, r.tip, r.delivery_fee, r.amount, r.amount_refunded
              FROM report_sales_days r
             WHERE r.business_uuid = $1 AND r.day >= $6::date AND r.day < $7::date
            UNION ALL
            SELECT o.payment_processor, o.fulfilment_type, (o.status IN ('accepted', 'preparing', 'ready', 'out_for_delivery', 'completed'))::int AS sale_orders, (o.status = 'pending')::int AS open_orders, (o.status IN ('rejected', 'cancelled'))::int AS lost_orders, CASE WHEN o.status IN ('accepted', 'preparing', 'ready', 'out_for_delivery', 'completed') THEN o.items_subtotal ELSE 0 END AS items_subtotal, CASE WHEN o.status IN ('accepted', 'preparing', 'ready', 'out_for_delivery', 'completed') THEN o.discount ELSE 0 END AS discount, CASE WHEN o.status IN ('accepted', 'preparing', 'ready', 'out_for_delivery', 'completed') THEN o.service_charge ELSE 0 END AS service_charge, CASE WHEN o.status IN ('accepted', 'preparing', 'ready', 'out_for_delivery', 'completed') THEN o.tax ELSE 0 END AS tax, CASE WHEN o.status IN ('accepted', 'preparing', 'ready', 'out_for_delivery', 'completed') THEN o.tip ELSE 0 END AS tip, CASE WHEN o.status IN ('accepted', 'preparing', 'ready', 'out_for_delivery', 'completed') THEN o.delivery_fee ELSE 0 END AS delivery_fee, CASE WHEN o.status IN ('accepted', 'preparing', 'ready', 'out_for_delivery', 'completed') THEN o.amount ELSE 0 END AS amount, CASE WHEN o.status IN ('accepted', 'preparing', 'ready', 'out_for_delivery', 'completed') THEN o.amount_refunded ELSE 0 END AS amount_refunded
              FROM (
  SELECT * FROM orders
   WHERE business_uuid = $1 AND created_at >= $2::date::timestamptz AND created_at < $4::timestamptz
  UNION ALL
  SELECT * FROM orders
   WHERE business_uuid = $1 AND created_at >= $5::timestamptz AND created_at < ($3::date + 1)::timestamptz
) AS o) AS s
     GROUP BY GROUPING SETS ((s.payment_processor), (s.fulfilment_type));
