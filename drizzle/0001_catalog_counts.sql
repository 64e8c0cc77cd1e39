-- Exact catalog totals for every genre x category combination ('*' = no filter), so a filtered page
-- does not count 100,000 rows. Refreshed by the catalog write path (refreshCatalogCounts).
CREATE MATERIALIZED VIEW "catalog_counts" AS
SELECT genre, category, count(*)::int AS total
FROM (
  SELECT g.genre_keys,
         g.featured
           || CASE WHEN g.coming_soon THEN ARRAY['coming_soon'] ELSE ARRAY[]::text[] END
           || CASE WHEN EXISTS (SELECT 1 FROM packages d WHERE d.app_id = g.app_id AND d.is_main AND d.discount_percent > 0)
                   THEN ARRAY['specials'] ELSE ARRAY[]::text[] END AS categories
  FROM games g
) AS game
CROSS JOIN LATERAL unnest(game.genre_keys || ARRAY['*']) AS genre
CROSS JOIN LATERAL unnest(game.categories || ARRAY['*']) AS category
GROUP BY genre, category;
--> statement-breakpoint
CREATE UNIQUE INDEX "catalog_counts_key" ON "catalog_counts" ("genre", "category");
