ALTER TABLE "api_tokens" ADD COLUMN "session_version" integer;--> statement-breakpoint
ALTER TABLE "api_tokens" ADD CONSTRAINT "api_tokens_session_storefront_only" CHECK ("api_tokens"."session_version" IS NULL OR "api_tokens"."purpose" = 'storefront');--> statement-breakpoint
-- Storefront tokens already out for signed-in shoppers (guests' owner has no sessions) are tied to
-- the account's current session version, so the first sign-out after the upgrade ends them too.
UPDATE "api_tokens" AS t SET "session_version" = u."session_version"
FROM "users" AS u
WHERE u."id" = t."user_id" AND t."purpose" = 'storefront' AND u."password_hash" IS NOT NULL AND t."expires_at" > now();
