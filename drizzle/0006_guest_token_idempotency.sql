ALTER TABLE "idempotency_keys" DROP CONSTRAINT "idempotency_keys_user_id_key_pk";--> statement-breakpoint
ALTER TABLE "idempotency_keys" ADD COLUMN "token_id" uuid;--> statement-breakpoint
ALTER TABLE "idempotency_keys" ADD CONSTRAINT "idempotency_keys_token_id_api_tokens_id_fk" FOREIGN KEY ("token_id") REFERENCES "public"."api_tokens"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Edited by hand: keys that guests' tokens stored before this migration move to their own token,
-- so the rule holds at once rather than after their 24 hours.
UPDATE "idempotency_keys" AS k SET "token_id" = i."token_id"
FROM "intents" AS i, "users" AS u
WHERE k."intent_id" = i."id" AND k."user_id" = u."id" AND lower(u."email") = 'guests@storefront.giftkey.invalid';--> statement-breakpoint
ALTER TABLE "idempotency_keys" ADD CONSTRAINT "idempotency_keys_owner_token_key" UNIQUE NULLS NOT DISTINCT("user_id","token_id","key");