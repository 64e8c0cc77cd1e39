-- Where every 128th game of a catalog listing stands, so a deep page starts at the nearest checkpoint
-- at or before its offset and walks at most 127 index entries instead of the whole offset (page
-- 49,999 of a million games walked a million). The listings with checkpoints are the ones a shopper
-- pages through: the whole store, one genre, one category (scope '*'), and one gift region (scope =
-- the region, no other filter), each in the catalog's default order. `n` is the 0-based position.
-- Refreshed with catalog_counts by the catalog write path (refreshCatalogCounts), so positions and
-- totals describe the same catalog.
CREATE MATERIALIZED VIEW "catalog_checkpoints" AS
WITH visible AS (
  SELECT g.app_id, g.sort_tier, g.sort_rank, g.genre_keys,
         g.featured
           || CASE WHEN g.coming_soon THEN ARRAY['coming_soon'] ELSE ARRAY[]::text[] END
           || CASE WHEN EXISTS (SELECT 1 FROM packages d WHERE d.app_id = g.app_id AND d.is_main AND d.discount_percent > 0)
                   THEN ARRAY['specials'] ELSE ARRAY[]::text[] END AS categories
  FROM games g
  WHERE NOT g.hidden
),
listed AS (
  SELECT '*'::text AS scope, '*'::text AS genre, '*'::text AS category, sort_tier, sort_rank, app_id FROM visible
  UNION ALL
  SELECT '*', genre, '*', sort_tier, sort_rank, app_id FROM visible CROSS JOIN LATERAL unnest(genre_keys) AS genre
  UNION ALL
  SELECT '*', '*', category, sort_tier, sort_rank, app_id FROM visible CROSS JOIN LATERAL unnest(categories) AS category
  UNION ALL
  SELECT gg.region, '*', '*', 0::smallint, gg.sort_rank, gg.app_id FROM giftable_games gg
),
numbered AS (
  SELECT scope, genre, category, sort_tier, sort_rank, app_id,
         row_number() OVER (PARTITION BY scope, genre, category ORDER BY sort_tier, sort_rank, app_id) - 1 AS n
  FROM listed
)
SELECT scope, genre, category, n::int AS n, sort_tier, sort_rank, app_id
FROM numbered
WHERE n % 128 = 0;
--> statement-breakpoint
CREATE UNIQUE INDEX "catalog_checkpoints_key" ON "catalog_checkpoints" ("scope", "genre", "category", "n");
