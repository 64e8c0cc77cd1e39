ALTER TABLE "intents" ADD COLUMN "client_key" text;--> statement-breakpoint
CREATE INDEX "intents_open_holds_client_idx" ON "intents" USING btree ("client_key","expires_at") WHERE status = 'requires_payment' AND client_key IS NOT NULL;--> statement-breakpoint
ALTER TABLE "gear_items" ADD CONSTRAINT "gear_items_price_bounded" CHECK ("gear_items"."price" <= 100000000);--> statement-breakpoint
ALTER TABLE "packages" ADD CONSTRAINT "packages_price_bounded" CHECK ("packages"."price_initial" <= 100000000);