CREATE INDEX "deliveries_status_idx" ON "deliveries" USING btree ("status","intent_id");--> statement-breakpoint
CREATE INDEX "intents_created_idx" ON "intents" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "intents_status_created_idx" ON "intents" USING btree ("status","created_at");--> statement-breakpoint
CREATE INDEX "intents_email_idx" ON "intents" USING btree (lower("email") text_pattern_ops);--> statement-breakpoint
CREATE INDEX "intents_recipient_steam_id_idx" ON "intents" USING btree ("recipient_steam_id") WHERE recipient_steam_id IS NOT NULL;--> statement-breakpoint
CREATE INDEX "intents_account_idx" ON "intents" USING btree ("account") WHERE account IS NOT NULL;--> statement-breakpoint
CREATE INDEX "intents_invite_url_idx" ON "intents" USING btree ("invite_url") WHERE invite_url IS NOT NULL;--> statement-breakpoint
CREATE INDEX "intents_utm_campaign_idx" ON "intents" USING btree (("attribution" ->> 'utm_campaign'));--> statement-breakpoint
CREATE INDEX "intents_utm_source_idx" ON "intents" USING btree (("attribution" ->> 'utm_source'));--> statement-breakpoint
CREATE INDEX "intents_app_created_idx" ON "intents" USING btree ("app_id","created_at");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_intent_idx" ON "webhook_deliveries" USING btree ("intent_id","created_at") WHERE intent_id IS NOT NULL;