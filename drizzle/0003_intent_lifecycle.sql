CREATE TABLE "idempotency_keys" (
	"user_id" uuid NOT NULL,
	"key" text NOT NULL,
	"request_route" text NOT NULL,
	"request_hash" text NOT NULL,
	"response_status" smallint NOT NULL,
	"response_body" text NOT NULL,
	"intent_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "idempotency_keys_user_id_key_pk" PRIMARY KEY("user_id","key"),
	CONSTRAINT "idempotency_keys_key_shape" CHECK (length("idempotency_keys"."key") BETWEEN 1 AND 255)
);
--> statement-breakpoint
CREATE TABLE "webhook_attempts" (
	"id" serial PRIMARY KEY NOT NULL,
	"delivery_id" uuid NOT NULL,
	"attempt" integer NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"duration_ms" integer NOT NULL,
	"response_status" smallint,
	"error" text
);
--> statement-breakpoint
CREATE TABLE "webhook_deliveries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"intent_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"event_type" text NOT NULL,
	"url" text NOT NULL,
	"body" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempt_count" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"locked_until" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	CONSTRAINT "webhook_deliveries_attempts" CHECK ("webhook_deliveries"."attempt_count" >= 0),
	CONSTRAINT "webhook_deliveries_status_known" CHECK ("webhook_deliveries"."status" IN ('pending', 'delivered', 'stopped', 'failed'))
);
--> statement-breakpoint
ALTER TABLE "api_tokens" DROP CONSTRAINT "api_tokens_scopes_known";--> statement-breakpoint
ALTER TABLE "api_tokens" ADD COLUMN "purpose" text DEFAULT 'api' NOT NULL;--> statement-breakpoint
ALTER TABLE "intents" ADD COLUMN "paid_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "intents" ADD COLUMN "fulfilled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "intents" ADD COLUMN "canceled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "intents" ADD COLUMN "expired_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "intents" ADD COLUMN "payment_provider" text;--> statement-breakpoint
ALTER TABLE "intents" ADD COLUMN "provider_payment_id" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "webhook_secret" text;--> statement-breakpoint
ALTER TABLE "idempotency_keys" ADD CONSTRAINT "idempotency_keys_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "idempotency_keys" ADD CONSTRAINT "idempotency_keys_intent_id_intents_id_fk" FOREIGN KEY ("intent_id") REFERENCES "public"."intents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_attempts" ADD CONSTRAINT "webhook_attempts_delivery_id_webhook_deliveries_id_fk" FOREIGN KEY ("delivery_id") REFERENCES "public"."webhook_deliveries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_intent_id_intents_id_fk" FOREIGN KEY ("intent_id") REFERENCES "public"."intents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "idempotency_keys_expires_idx" ON "idempotency_keys" USING btree ("expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "webhook_attempts_delivery_attempt_key" ON "webhook_attempts" USING btree ("delivery_id","attempt");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_due_idx" ON "webhook_deliveries" USING btree ("next_attempt_at") WHERE status = 'pending';--> statement-breakpoint
CREATE INDEX "webhook_deliveries_intent_idx" ON "webhook_deliveries" USING btree ("intent_id");--> statement-breakpoint
CREATE INDEX "intents_unswept_idx" ON "intents" USING btree ("expires_at") WHERE status = 'requires_payment';--> statement-breakpoint
ALTER TABLE "api_tokens" ADD CONSTRAINT "api_tokens_purpose_known" CHECK ("api_tokens"."purpose" IN ('api', 'storefront'));--> statement-breakpoint
ALTER TABLE "api_tokens" ADD CONSTRAINT "api_tokens_scopes_known" CHECK (cardinality("api_tokens"."scopes") > 0 AND "api_tokens"."scopes" <@ ARRAY['catalog:read', 'gifts:verify', 'gear:create', 'intents:read']::text[]);--> statement-breakpoint
ALTER TABLE "intents" ADD CONSTRAINT "intents_status_known" CHECK ("intents"."status" IN ('requires_payment', 'paid', 'fulfilled', 'canceled', 'expired'));--> statement-breakpoint
ALTER TABLE "intents" ADD CONSTRAINT "intents_status_times" CHECK (("intents"."paid_at" IS NOT NULL) = ("intents"."status" IN ('paid', 'fulfilled'))
        AND ("intents"."fulfilled_at" IS NOT NULL) = ("intents"."status" = 'fulfilled')
        AND ("intents"."canceled_at" IS NOT NULL) = ("intents"."status" = 'canceled')
        AND ("intents"."expired_at" IS NOT NULL) = ("intents"."status" = 'expired'));--> statement-breakpoint
-- The intent state machine, enforced where every writer meets it. Only these moves exist:
--   requires_payment -> paid -> fulfilled;  requires_payment -> canceled | expired.
-- The trigger stamps the time of each move; nothing else may write those columns, and what was
-- bought and its amounts never change after creation. lib/intents/states.ts holds the same table
-- for the application, which checks first so it can answer with a clear error.
CREATE FUNCTION intents_guard_transition() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF (NEW.kind, NEW.token_id, NEW.app_id, NEW.package_id, NEW.gear_item_id, NEW.promo_code_id,
      NEW.intent_amount, NEW.discount_amount, NEW.fee_amount, NEW.payment_amount, NEW.currency, NEW.created_at)
     IS DISTINCT FROM
     (OLD.kind, OLD.token_id, OLD.app_id, OLD.package_id, OLD.gear_item_id, OLD.promo_code_id,
      OLD.intent_amount, OLD.discount_amount, OLD.fee_amount, OLD.payment_amount, OLD.currency, OLD.created_at) THEN
    RAISE EXCEPTION 'intent % cannot change what it buys or its amounts', OLD.id USING ERRCODE = 'GKSTA';
  END IF;
  IF NEW.status = OLD.status THEN
    IF (NEW.paid_at, NEW.fulfilled_at, NEW.canceled_at, NEW.expired_at)
       IS DISTINCT FROM (OLD.paid_at, OLD.fulfilled_at, OLD.canceled_at, OLD.expired_at) THEN
      RAISE EXCEPTION 'intent % state times change only with its state', OLD.id USING ERRCODE = 'GKSTA';
    END IF;
    RETURN NEW;
  END IF;
  IF NOT ((OLD.status = 'requires_payment' AND NEW.status IN ('paid', 'canceled', 'expired'))
          OR (OLD.status = 'paid' AND NEW.status = 'fulfilled')) THEN
    RAISE EXCEPTION 'intent % cannot move from % to %', OLD.id, OLD.status, NEW.status USING ERRCODE = 'GKSTA';
  END IF;
  IF NEW.status = 'paid' AND OLD.expires_at <= now() THEN
    RAISE EXCEPTION 'intent % expired at %', OLD.id, OLD.expires_at USING ERRCODE = 'GKEXP';
  END IF;
  IF NEW.status = 'expired' AND OLD.expires_at > now() THEN
    RAISE EXCEPTION 'intent % does not expire until %', OLD.id, OLD.expires_at USING ERRCODE = 'GKSTA';
  END IF;
  NEW.expires_at := OLD.expires_at;
  CASE NEW.status
    WHEN 'paid' THEN NEW.paid_at := now();
    WHEN 'fulfilled' THEN NEW.fulfilled_at := now();
    WHEN 'canceled' THEN NEW.canceled_at := now();
    -- When it ran out, not when a sweep noticed.
    WHEN 'expired' THEN NEW.expired_at := OLD.expires_at;
  END CASE;
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER intents_guard_transition BEFORE UPDATE ON intents
  FOR EACH ROW EXECUTE FUNCTION intents_guard_transition();
--> statement-breakpoint
-- What a move does to stock and promo codes, in the same transaction as the move:
-- a paid gear unit leaves stock for good (it was already held by the live reservation, so the
-- units free to reserve do not change); an intent that ends unpaid gives its promo-code use back.
CREATE FUNCTION intents_apply_transition() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.status = 'paid' AND NEW.gear_item_id IS NOT NULL THEN
    UPDATE gear_items SET stock = stock - 1 WHERE id = NEW.gear_item_id;
  ELSIF NEW.status IN ('canceled', 'expired') AND NEW.promo_code_id IS NOT NULL THEN
    UPDATE promo_codes SET uses = uses - 1 WHERE id = NEW.promo_code_id;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER intents_apply_transition AFTER UPDATE OF status ON intents
  FOR EACH ROW WHEN (NEW.status IS DISTINCT FROM OLD.status)
  EXECUTE FUNCTION intents_apply_transition();
