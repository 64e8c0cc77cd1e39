CREATE TABLE "campaign_daily" (
	"day" date NOT NULL,
	"source" text NOT NULL,
	"medium" text NOT NULL,
	"campaign" text NOT NULL,
	"intents" integer DEFAULT 0 NOT NULL,
	"paid" integer DEFAULT 0 NOT NULL,
	"gross" bigint DEFAULT 0 NOT NULL,
	"refunds" integer DEFAULT 0 NOT NULL,
	"refunded" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "campaign_daily_day_source_medium_campaign_pk" PRIMARY KEY("day","source","medium","campaign")
);
--> statement-breakpoint
DROP INDEX "intents_status_created_idx";--> statement-breakpoint
DROP INDEX "intents_utm_campaign_idx";--> statement-breakpoint
DROP INDEX "intents_utm_source_idx";--> statement-breakpoint
DROP INDEX "intents_attributed_created_idx";--> statement-breakpoint
DROP INDEX "intents_attributed_paid_idx";--> statement-breakpoint
DROP INDEX "intents_attributed_refunded_idx";--> statement-breakpoint
CREATE INDEX "games_title_trgm_idx" ON "games" USING gin ("title" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "games_title_ru_trgm_idx" ON "games" USING gin ("title_ru" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "intents_state_created_idx" ON "intents" USING btree (array_position(ARRAY['requires_payment', 'paid', 'fulfilled', 'refunded', 'canceled', 'expired']::text[], "status"),"created_at","id");--> statement-breakpoint
CREATE INDEX "intents_utm_campaign_created_idx" ON "intents" USING btree (("attribution" ->> 'utm_campaign'),"created_at","id") WHERE attribution IS NOT NULL;--> statement-breakpoint
CREATE INDEX "intents_utm_source_created_idx" ON "intents" USING btree (("attribution" ->> 'utm_source'),"created_at","id") WHERE attribution IS NOT NULL;--> statement-breakpoint
CREATE INDEX "intents_amount_created_idx" ON "intents" USING btree ("payment_amount","created_at","id");--> statement-breakpoint
-- The campaign report's figures (lib/services/campaign-report.ts), kept per store day and campaign by
-- the intents' own triggers in the writing transaction: exact at every commit, whoever writes (the
-- app, the sweep, an operator with psql), and a quarter is a few thousand rows to add instead of
-- every attributed intent in it. An attributed intent counts on the store day (Moscow) it was made,
-- the day it was paid (with its amount) and the day it was refunded, under its attribution's names
-- ('' when absent). One definition of that serves the triggers and the rebuild below.
CREATE FUNCTION campaign_daily_events(i intents, sign integer)
RETURNS TABLE (day date, source text, medium text, campaign text, intents integer, paid integer, gross bigint, refunds integer, refunded bigint)
LANGUAGE sql STABLE AS $$
  SELECT (e.at AT TIME ZONE 'Europe/Moscow')::date,
         coalesce(i.attribution ->> 'utm_source', ''),
         coalesce(i.attribution ->> 'utm_medium', ''),
         coalesce(i.attribution ->> 'utm_campaign', ''),
         sign * e.made, sign * e.paid, sign * e.gross, sign * e.refunds, sign * e.refunded
  FROM (VALUES (i.created_at, 1, 0, 0::bigint, 0, 0::bigint),
               (i.paid_at, 0, 1, i.payment_amount::bigint, 0, 0::bigint),
               (i.refunded_at, 0, 0, 0::bigint, 1, i.payment_amount::bigint)) AS e(at, made, paid, gross, refunds, refunded)
  WHERE e.at IS NOT NULL AND i.attribution IS NOT NULL AND i.attribution <> '{}'::jsonb
$$;
--> statement-breakpoint
-- What a row's change does to the figures: its events as they are now, less its events as they were
-- (OLD is null for an insert, NEW for a delete). A payment or a refund is one row's upsert; keys go
-- in one order, so two writers touching the same rows wait for each other instead of deadlocking.
CREATE FUNCTION intents_campaign_daily() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- An intent made unpaid (every one the API makes) is one count on its day: no grouping to do.
  IF TG_OP = 'INSERT' AND NEW.paid_at IS NULL AND NEW.refunded_at IS NULL THEN
    INSERT INTO campaign_daily AS c (day, source, medium, campaign, intents)
    SELECT e.day, e.source, e.medium, e.campaign, e.intents FROM campaign_daily_events(NEW, 1) e
    ON CONFLICT (day, source, medium, campaign) DO UPDATE SET intents = c.intents + excluded.intents;
    RETURN NULL;
  END IF;
  INSERT INTO campaign_daily AS c (day, source, medium, campaign, intents, paid, gross, refunds, refunded)
  SELECT e.day, e.source, e.medium, e.campaign, sum(e.intents), sum(e.paid), sum(e.gross), sum(e.refunds), sum(e.refunded)
  FROM (SELECT * FROM campaign_daily_events(OLD, -1) UNION ALL SELECT * FROM campaign_daily_events(NEW, 1)) e
  GROUP BY e.day, e.source, e.medium, e.campaign
  HAVING (sum(e.intents), sum(e.paid), sum(e.gross), sum(e.refunds), sum(e.refunded)) <> (0, 0, 0, 0, 0)
  ORDER BY e.day, e.source, e.medium, e.campaign
  ON CONFLICT (day, source, medium, campaign) DO UPDATE SET
    intents = c.intents + excluded.intents, paid = c.paid + excluded.paid, gross = c.gross + excluded.gross,
    refunds = c.refunds + excluded.refunds, refunded = c.refunded + excluded.refunded;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- Only attributed intents call it: an intent without a campaign (most of them, and every partner's
-- unless they pass one) pays for the WHEN test alone.
CREATE TRIGGER intents_campaign_daily_insert AFTER INSERT ON intents
  FOR EACH ROW WHEN (NEW.attribution IS NOT NULL) EXECUTE FUNCTION intents_campaign_daily();
--> statement-breakpoint
CREATE TRIGGER intents_campaign_daily_update AFTER UPDATE ON intents
  FOR EACH ROW WHEN ((OLD.attribution IS NOT NULL OR NEW.attribution IS NOT NULL)
    AND (OLD.attribution, OLD.created_at, OLD.paid_at, OLD.refunded_at, OLD.payment_amount)
        IS DISTINCT FROM (NEW.attribution, NEW.created_at, NEW.paid_at, NEW.refunded_at, NEW.payment_amount))
  EXECUTE FUNCTION intents_campaign_daily();
--> statement-breakpoint
CREATE TRIGGER intents_campaign_daily_delete AFTER DELETE ON intents
  FOR EACH ROW WHEN (OLD.attribution IS NOT NULL) EXECUTE FUNCTION intents_campaign_daily();
--> statement-breakpoint
CREATE FUNCTION intents_campaign_daily_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  TRUNCATE campaign_daily;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER intents_campaign_daily_truncate AFTER TRUNCATE ON intents
  FOR EACH STATEMENT EXECUTE FUNCTION intents_campaign_daily_truncate();
--> statement-breakpoint
-- The figures computed again from every intent: what the triggers keep, from scratch. Writers to
-- intents wait meanwhile (SHARE lock), so none of their changes falls between the two statements.
CREATE FUNCTION campaign_daily_rebuild() RETURNS void LANGUAGE sql AS $$
  LOCK TABLE intents IN SHARE MODE;
  DELETE FROM campaign_daily;
  INSERT INTO campaign_daily (day, source, medium, campaign, intents, paid, gross, refunds, refunded)
  SELECT e.day, e.source, e.medium, e.campaign, sum(e.intents), sum(e.paid), sum(e.gross), sum(e.refunds), sum(e.refunded)
  FROM intents i CROSS JOIN LATERAL campaign_daily_events(i, 1) e
  WHERE i.attribution IS NOT NULL
  GROUP BY e.day, e.source, e.medium, e.campaign;
$$;
--> statement-breakpoint
SELECT campaign_daily_rebuild();
