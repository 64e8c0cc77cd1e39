CREATE TABLE "webhook_endpoints" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"url" text NOT NULL,
	"event_types" text[] NOT NULL,
	"secret" text NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "webhook_endpoints_event_types_known" CHECK (cardinality("webhook_endpoints"."event_types") >= 1 AND "webhook_endpoints"."event_types" <@ ARRAY['intent.paid', 'intent.delivered', 'intent.delivery_failed', 'intent.refunded', 'intent.canceled', 'intent.expired']::text[]),
	CONSTRAINT "webhook_endpoints_secret_format" CHECK ("webhook_endpoints"."secret" LIKE 'whsec_%')
);
--> statement-breakpoint
DROP INDEX "webhook_deliveries_intent_event_key";--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ALTER COLUMN "intent_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD COLUMN "endpoint_id" uuid;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD COLUMN "resend_of" uuid;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD CONSTRAINT "webhook_endpoints_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "webhook_endpoints_user_idx" ON "webhook_endpoints" USING btree ("user_id","created_at");--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_endpoint_id_webhook_endpoints_id_fk" FOREIGN KEY ("endpoint_id") REFERENCES "public"."webhook_endpoints"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_resend_of_webhook_deliveries_id_fk" FOREIGN KEY ("resend_of") REFERENCES "public"."webhook_deliveries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "webhook_deliveries_event_key" ON "webhook_deliveries" USING btree ("intent_id","event_type",coalesce(endpoint_id, '00000000-0000-0000-0000-000000000000'::uuid)) WHERE intent_id IS NOT NULL AND resend_of IS NULL;--> statement-breakpoint
CREATE INDEX "webhook_deliveries_endpoint_idx" ON "webhook_deliveries" USING btree ("endpoint_id","created_at");--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_test_has_endpoint" CHECK ("webhook_deliveries"."intent_id" IS NOT NULL OR "webhook_deliveries"."endpoint_id" IS NOT NULL);