-- No insert path can reserve more units of a gear item than its stock: the database checks it.
-- The item row is locked first; PL/pgSQL then counts with a fresh snapshot, so it sees every
-- reservation committed by whoever held the lock before. Live = unpaid and unexpired.
CREATE FUNCTION intents_hold_gear_stock() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  on_hand integer;
  held integer;
BEGIN
  IF NEW.gear_item_id IS NULL OR NEW.status <> 'requires_payment' THEN
    RETURN NEW;
  END IF;
  SELECT stock INTO on_hand FROM gear_items WHERE id = NEW.gear_item_id FOR UPDATE;
  SELECT count(*) INTO held FROM intents
   WHERE gear_item_id = NEW.gear_item_id AND status = 'requires_payment' AND expires_at > now();
  IF held >= on_hand THEN
    RAISE EXCEPTION 'gear item % is out of stock', NEW.gear_item_id USING ERRCODE = 'GK409';
  END IF;
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER intents_hold_gear_stock BEFORE INSERT ON intents
  FOR EACH ROW EXECUTE FUNCTION intents_hold_gear_stock();
