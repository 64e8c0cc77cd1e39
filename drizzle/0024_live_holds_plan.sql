-- Counting a gear item's live reservations (the stock guard of drizzle/0002, the gear list, the
-- back office) with `expires_at > now()` in the WHERE clause let two partial indexes fit: the
-- item's own (intents_live_gear_idx) and the sweeper's (intents_unswept_idx, every open intent of
-- the store). When the last ANALYZE saw no unexpired intent (before a sale: autovacuum analyses
-- after 10% of the table has changed), the planner estimates one row in either and took the
-- sweeper's, so each reservation walked every open intent of the store while holding the item's
-- lock. Now expiry is counted as a FILTER, and the sweeper's index carries `expires_at IS NOT NULL`
-- (always true: the column is NOT NULL), which only a query that bounds expires_at implies: the
-- sweeper's does, the counts do not, so they can only take the item's or the holder's index.
CREATE OR REPLACE FUNCTION intents_hold_gear_stock() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  on_hand integer;
  held integer;
BEGIN
  IF NEW.gear_item_id IS NULL OR NEW.status <> 'requires_payment' THEN
    RETURN NEW;
  END IF;
  SELECT stock INTO on_hand FROM gear_items WHERE id = NEW.gear_item_id FOR UPDATE;
  SELECT count(*) FILTER (WHERE expires_at > now()) INTO held FROM intents
   WHERE gear_item_id = NEW.gear_item_id AND status = 'requires_payment';
  IF held >= on_hand THEN
    RAISE EXCEPTION 'gear item % is out of stock', NEW.gear_item_id USING ERRCODE = 'GK409';
  END IF;
  RETURN NEW;
END
$$;
--> statement-breakpoint
DROP INDEX "intents_unswept_idx";
--> statement-breakpoint
CREATE INDEX "intents_unswept_idx" ON "intents" USING btree ("expires_at") WHERE status = 'requires_payment' AND expires_at IS NOT NULL;
