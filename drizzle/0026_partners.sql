CREATE TABLE "partners" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" text NOT NULL,
	"hold_cap" integer,
	CONSTRAINT "partners_hold_cap_bounded" CHECK ("partners"."hold_cap" BETWEEN 1 AND 10000000)
);
--> statement-breakpoint
ALTER TABLE "partners" ADD CONSTRAINT "partners_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "intents_open_holds_token_idx" ON "intents" USING btree ("token_id","expires_at") WHERE status = 'requires_payment' AND token_id IS NOT NULL AND (gear_item_id IS NOT NULL OR promo_code_id IS NOT NULL);--> statement-breakpoint
-- The store's own operator account (the token CLI's default owner) refunds through the API as before.
-- Other owners of tokens are not made partners: their intents:refund tokens stop refunding until an
-- admin makes the account one on /admin/partners.
INSERT INTO "partners" ("user_id", "created_by")
SELECT "id", 'migration 0026' FROM "users" WHERE lower("email") = 'operator@localhost'
ON CONFLICT DO NOTHING;
