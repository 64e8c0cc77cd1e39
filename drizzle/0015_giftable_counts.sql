-- Exact totals of the giftableTo filter for every region x genre x category ('*' = no filter), as
-- catalog_counts gives the other filters'. Refreshed with it by refreshCatalogCounts.
CREATE MATERIALIZED VIEW "giftable_counts" AS
SELECT gg.region, genre, category, count(*)::int AS total
FROM giftable_games gg
JOIN (
  SELECT g.app_id,
         g.genre_keys,
         g.featured
           || CASE WHEN g.coming_soon THEN ARRAY['coming_soon'] ELSE ARRAY[]::text[] END
           || CASE WHEN EXISTS (SELECT 1 FROM packages d WHERE d.app_id = g.app_id AND d.is_main AND d.discount_percent > 0)
                   THEN ARRAY['specials'] ELSE ARRAY[]::text[] END AS categories
  FROM games g
) AS game ON game.app_id = gg.app_id
CROSS JOIN LATERAL unnest(game.genre_keys || ARRAY['*']) AS genre
CROSS JOIN LATERAL unnest(game.categories || ARRAY['*']) AS category
GROUP BY gg.region, genre, category;
--> statement-breakpoint
CREATE UNIQUE INDEX "giftable_counts_key" ON "giftable_counts" ("region", "genre", "category");
--> statement-breakpoint
-- A rouble is a rouble: RUB prices need no rate from anyone.
INSERT INTO "currency_rates" ("currency", "as_of", "rub_micros_per_unit") VALUES ('RUB', '2000-01-01', 1000000);
