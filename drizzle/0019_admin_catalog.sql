CREATE INDEX "intents_promo_code_idx" ON "intents" USING btree ("promo_code_id","status") WHERE promo_code_id IS NOT NULL;--> statement-breakpoint
CREATE INDEX "intents_gear_sold_idx" ON "intents" USING btree ("gear_item_id") WHERE status IN ('paid', 'fulfilled');--> statement-breakpoint
-- A game hidden by staff is not in the store, so not in its totals either. (giftable_counts needs no
-- change: refreshGiftability leaves hidden games out of giftable_games.)
DROP MATERIALIZED VIEW "catalog_counts";
--> statement-breakpoint
CREATE MATERIALIZED VIEW "catalog_counts" AS
SELECT genre, category, count(*)::int AS total
FROM (
  SELECT g.genre_keys,
         g.featured
           || CASE WHEN g.coming_soon THEN ARRAY['coming_soon'] ELSE ARRAY[]::text[] END
           || CASE WHEN EXISTS (SELECT 1 FROM packages d WHERE d.app_id = g.app_id AND d.is_main AND d.discount_percent > 0)
                   THEN ARRAY['specials'] ELSE ARRAY[]::text[] END AS categories
  FROM games g
  WHERE NOT g.hidden
) AS game
CROSS JOIN LATERAL unnest(game.genre_keys || ARRAY['*']) AS genre
CROSS JOIN LATERAL unnest(game.categories || ARRAY['*']) AS category
GROUP BY genre, category;
--> statement-breakpoint
CREATE UNIQUE INDEX "catalog_counts_key" ON "catalog_counts" ("genre", "category");
