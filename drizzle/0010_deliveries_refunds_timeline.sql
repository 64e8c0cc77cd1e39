CREATE TABLE "deliveries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"intent_id" uuid NOT NULL,
	"provider" text NOT NULL,
	"status" text DEFAULT 'created' NOT NULL,
	"step" text DEFAULT 'queued' NOT NULL,
	"failure_reason" text,
	"attempt_count" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"locked_until" timestamp with time zone,
	"assigned_to" uuid,
	"assigned_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	CONSTRAINT "deliveries_status_known" CHECK ("deliveries"."status" IN ('created', 'pending', 'retrying', 'delivered', 'failed')),
	CONSTRAINT "deliveries_failed_has_reason" CHECK (("deliveries"."status" = 'failed') = ("deliveries"."failure_reason" IS NOT NULL AND "deliveries"."finished_at" IS NOT NULL)),
	CONSTRAINT "deliveries_attempts" CHECK ("deliveries"."attempt_count" >= 0)
);
--> statement-breakpoint
CREATE TABLE "delivery_attempts" (
	"id" serial PRIMARY KEY NOT NULL,
	"delivery_id" uuid NOT NULL,
	"attempt" integer NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"finished_at" timestamp with time zone DEFAULT now() NOT NULL,
	"outcome" text NOT NULL,
	"step" text,
	"failure_reason" text,
	"actor" text
);
--> statement-breakpoint
CREATE TABLE "intent_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"intent_id" uuid NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"kind" text NOT NULL,
	"value" text NOT NULL,
	"reason" text,
	"actor" text
);
--> statement-breakpoint
ALTER TABLE "api_tokens" DROP CONSTRAINT "api_tokens_scopes_known";--> statement-breakpoint
ALTER TABLE "intents" DROP CONSTRAINT "intents_status_known";--> statement-breakpoint
ALTER TABLE "intents" DROP CONSTRAINT "intents_status_times";--> statement-breakpoint
ALTER TABLE "intents" ADD COLUMN "refunded_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "intents" ADD COLUMN "refund_reason" text;--> statement-breakpoint
ALTER TABLE "intents" ADD COLUMN "refund_note" text;--> statement-breakpoint
ALTER TABLE "intents" ADD COLUMN "provider_refund_id" text;--> statement-breakpoint
ALTER TABLE "deliveries" ADD CONSTRAINT "deliveries_intent_id_intents_id_fk" FOREIGN KEY ("intent_id") REFERENCES "public"."intents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deliveries" ADD CONSTRAINT "deliveries_assigned_to_users_id_fk" FOREIGN KEY ("assigned_to") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "delivery_attempts" ADD CONSTRAINT "delivery_attempts_delivery_id_deliveries_id_fk" FOREIGN KEY ("delivery_id") REFERENCES "public"."deliveries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "intent_events" ADD CONSTRAINT "intent_events_intent_id_intents_id_fk" FOREIGN KEY ("intent_id") REFERENCES "public"."intents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "deliveries_intent_key" ON "deliveries" USING btree ("intent_id");--> statement-breakpoint
CREATE INDEX "deliveries_due_idx" ON "deliveries" USING btree ("next_attempt_at") WHERE status IN ('created', 'pending', 'retrying');--> statement-breakpoint
CREATE INDEX "delivery_attempts_delivery_idx" ON "delivery_attempts" USING btree ("delivery_id","attempt");--> statement-breakpoint
CREATE INDEX "intent_events_intent_idx" ON "intent_events" USING btree ("intent_id","id");--> statement-breakpoint
ALTER TABLE "api_tokens" ADD CONSTRAINT "api_tokens_scopes_known" CHECK (cardinality("api_tokens"."scopes") > 0 AND "api_tokens"."scopes" <@ ARRAY['catalog:read', 'gifts:verify', 'gear:create', 'intents:read', 'intents:refund']::text[]);--> statement-breakpoint
ALTER TABLE "intents" ADD CONSTRAINT "intents_status_known" CHECK ("intents"."status" IN ('requires_payment', 'paid', 'fulfilled', 'canceled', 'expired', 'refunded'));--> statement-breakpoint
ALTER TABLE "intents" ADD CONSTRAINT "intents_status_times" CHECK (("intents"."paid_at" IS NOT NULL) = ("intents"."status" IN ('paid', 'fulfilled', 'refunded'))
        AND ("intents"."fulfilled_at" IS NULL OR "intents"."status" IN ('fulfilled', 'refunded'))
        AND ("intents"."status" <> 'fulfilled' OR "intents"."fulfilled_at" IS NOT NULL)
        AND ("intents"."canceled_at" IS NOT NULL) = ("intents"."status" = 'canceled')
        AND ("intents"."expired_at" IS NOT NULL) = ("intents"."status" = 'expired')
        AND ("intents"."refunded_at" IS NOT NULL) = ("intents"."status" = 'refunded')
        AND ("intents"."refunded_at" IS NULL OR "intents"."refund_reason" IS NOT NULL));--> statement-breakpoint
-- The state machine grows a refund: paid -> refunded (the money goes back before or instead of
-- delivery) and fulfilled -> refunded (after it). lib/intents/states.ts holds the same table.
-- refunded_at is stamped here; what was bought and its amounts still never change.
CREATE OR REPLACE FUNCTION intents_guard_transition() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF (NEW.kind, NEW.token_id, NEW.app_id, NEW.package_id, NEW.gear_item_id, NEW.promo_code_id,
      NEW.intent_amount, NEW.discount_amount, NEW.fee_amount, NEW.payment_amount, NEW.currency, NEW.created_at)
     IS DISTINCT FROM
     (OLD.kind, OLD.token_id, OLD.app_id, OLD.package_id, OLD.gear_item_id, OLD.promo_code_id,
      OLD.intent_amount, OLD.discount_amount, OLD.fee_amount, OLD.payment_amount, OLD.currency, OLD.created_at) THEN
    RAISE EXCEPTION 'intent % cannot change what it buys or its amounts', OLD.id USING ERRCODE = 'GKSTA';
  END IF;
  IF NEW.status = OLD.status THEN
    IF (NEW.paid_at, NEW.fulfilled_at, NEW.canceled_at, NEW.expired_at, NEW.refunded_at)
       IS DISTINCT FROM (OLD.paid_at, OLD.fulfilled_at, OLD.canceled_at, OLD.expired_at, OLD.refunded_at) THEN
      RAISE EXCEPTION 'intent % state times change only with its state', OLD.id USING ERRCODE = 'GKSTA';
    END IF;
    RETURN NEW;
  END IF;
  IF NOT ((OLD.status = 'requires_payment' AND NEW.status IN ('paid', 'canceled', 'expired'))
          OR (OLD.status = 'paid' AND NEW.status IN ('fulfilled', 'refunded'))
          OR (OLD.status = 'fulfilled' AND NEW.status = 'refunded')) THEN
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
    WHEN 'refunded' THEN NEW.refunded_at := now();
  END CASE;
  RETURN NEW;
END
$$;
--> statement-breakpoint
-- What a move does to stock and promo codes, in the move's transaction: a paid gear unit leaves
-- stock for good, and comes back when the money goes back before it was delivered; an intent that
-- ends unpaid, or is refunded, gives its promo-code use back.
CREATE OR REPLACE FUNCTION intents_apply_transition() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.status = 'paid' AND NEW.gear_item_id IS NOT NULL THEN
    UPDATE gear_items SET stock = stock - 1 WHERE id = NEW.gear_item_id;
  ELSIF NEW.status = 'refunded' AND OLD.status = 'paid' AND NEW.gear_item_id IS NOT NULL THEN
    UPDATE gear_items SET stock = stock + 1 WHERE id = NEW.gear_item_id;
  END IF;
  IF NEW.status IN ('canceled', 'expired', 'refunded') AND NEW.promo_code_id IS NOT NULL THEN
    UPDATE promo_codes SET uses = uses - 1 WHERE id = NEW.promo_code_id;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- The timeline: every state an intent takes, with its time and why, written here so that no writer
-- (the app, the sweep, an operator with psql) can move an intent without an entry. The app says why
-- and who through transaction-local settings (lib/services/intent-lifecycle.ts moveIntent).
CREATE FUNCTION intents_record_event() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO intent_events (intent_id, at, kind, value, reason, actor)
  VALUES (NEW.id,
          CASE NEW.status WHEN 'expired' THEN NEW.expired_at WHEN 'requires_payment' THEN NEW.created_at ELSE now() END,
          'status', NEW.status,
          coalesce(nullif(current_setting('giftkey.reason', true), ''),
                   CASE NEW.status WHEN 'expired' THEN 'not paid in time' WHEN 'requires_payment' THEN 'created' END),
          nullif(current_setting('giftkey.actor', true), ''));
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER intents_record_event_insert AFTER INSERT ON intents
  FOR EACH ROW EXECUTE FUNCTION intents_record_event();
--> statement-breakpoint
CREATE TRIGGER intents_record_event_update AFTER UPDATE OF status ON intents
  FOR EACH ROW WHEN (NEW.status IS DISTINCT FROM OLD.status)
  EXECUTE FUNCTION intents_record_event();
--> statement-breakpoint
-- Intents made before this migration get the timeline their stamps tell, and paid ones a delivery:
-- delivered for the fulfilled, waiting in the manual queue for the paid.
INSERT INTO intent_events (intent_id, at, kind, value, reason)
SELECT id, created_at, 'status', 'requires_payment', 'created' FROM intents
UNION ALL SELECT id, paid_at, 'status', 'paid', NULL FROM intents WHERE paid_at IS NOT NULL
UNION ALL SELECT id, fulfilled_at, 'status', 'fulfilled', NULL FROM intents WHERE fulfilled_at IS NOT NULL
UNION ALL SELECT id, canceled_at, 'status', 'canceled', NULL FROM intents WHERE canceled_at IS NOT NULL
UNION ALL SELECT id, expired_at, 'status', 'expired', 'not paid in time' FROM intents WHERE expired_at IS NOT NULL
ORDER BY 2;
--> statement-breakpoint
INSERT INTO deliveries (intent_id, provider, status, step, finished_at)
SELECT id, 'manual', CASE status WHEN 'fulfilled' THEN 'delivered' ELSE 'pending' END,
       CASE status WHEN 'fulfilled' THEN 'accepted' ELSE 'queued' END,
       CASE status WHEN 'fulfilled' THEN fulfilled_at END
FROM intents WHERE status IN ('paid', 'fulfilled');
