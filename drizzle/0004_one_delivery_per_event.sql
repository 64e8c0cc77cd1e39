DROP INDEX "webhook_deliveries_intent_idx";--> statement-breakpoint
CREATE UNIQUE INDEX "webhook_deliveries_intent_event_key" ON "webhook_deliveries" USING btree ("intent_id","event_type");