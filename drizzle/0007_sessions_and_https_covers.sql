ALTER TABLE "users" ADD COLUMN "session_version" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Covers imported before the importer checked them: the generated cover is shown instead.
UPDATE "games" SET "header_image" = NULL WHERE "header_image" IS NOT NULL AND "header_image" NOT LIKE 'https://%';--> statement-breakpoint
ALTER TABLE "games" ADD CONSTRAINT "games_header_image_https" CHECK ("games"."header_image" IS NULL OR "games"."header_image" LIKE 'https://%');
