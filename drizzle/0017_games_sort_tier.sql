ALTER TABLE "games" ADD COLUMN "sort_tier" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "games_tier_sort_idx" ON "games" USING btree ("sort_tier","sort_rank","app_id");--> statement-breakpoint
-- The tiers of the games already stored, as refreshCatalogCounts (lib/services/catalog-write.ts) derives them.
UPDATE "games" g SET "sort_tier" = 1
FROM "games" x LEFT JOIN "packages" p ON p."app_id" = x."app_id" AND p."is_main"
WHERE g."app_id" = x."app_id"
  AND (x."coming_soon" OR (p."price_final" IS NULL AND NOT x."genre_keys" @> ARRAY['free to play']::text[]));
