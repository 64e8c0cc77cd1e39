CREATE TABLE "open_hold_counts" (
	"user_id" uuid NOT NULL,
	"bucket" timestamp with time zone NOT NULL,
	"n" integer NOT NULL,
	CONSTRAINT "open_hold_counts_user_id_bucket_pk" PRIMARY KEY("user_id","bucket")
);
--> statement-breakpoint
CREATE TABLE "partners" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" text NOT NULL,
	"hold_cap" integer,
	CONSTRAINT "partners_hold_cap_bounded" CHECK ("partners"."hold_cap" BETWEEN 1 AND 10000000)
);
--> statement-breakpoint
ALTER TABLE "open_hold_counts" ADD CONSTRAINT "open_hold_counts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "partners" ADD CONSTRAINT "partners_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "intents_open_holds_token_idx" ON "intents" USING btree ("token_id","expires_at") WHERE status = 'requires_payment' AND token_id IS NOT NULL AND (gear_item_id IS NOT NULL OR promo_code_id IS NOT NULL);--> statement-breakpoint
-- The store's own operator account (the token CLI's default owner) refunds through the API as before.
-- Other owners of tokens are not made partners: their intents:refund tokens stop refunding until an
-- admin makes the account one on /admin/partners.
INSERT INTO "partners" ("user_id", "created_by")
SELECT "id", 'migration 0026' FROM "users" WHERE lower("email") = 'operator@localhost'
ON CONFLICT DO NOTHING;
--> statement-breakpoint
-- An account's open holds, per 10-second span of expiry (open_hold_counts), kept by triggers so that
-- every way an intent is written keeps them: inserted holding and unpaid, +1 in its span; moved out
-- (paid, canceled, expired by the sweep), its expiry moved or deleted, -1 there. An intent of the
-- storefront's guest owner (STOREFRONT_GUEST_EMAIL, lib/services/tokens.ts) is no account's:
-- guests are capped per session, counted directly, and one row for them all would be every guest's
-- reservations waiting on each other.
CREATE OR REPLACE FUNCTION hold_bucket(expires timestamptz) RETURNS timestamptz LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT date_bin('10 seconds', expires, timestamptz '2000-01-01 00:00:00+00') + interval '10 seconds'
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION hold_counted_owner(intent intents) RETURNS uuid LANGUAGE sql STABLE AS $$
  SELECT t.user_id FROM api_tokens t JOIN users u ON u.id = t.user_id
   WHERE t.id = intent.token_id AND lower(u.email) <> 'guests@storefront.giftkey.invalid'
     AND intent.status = 'requires_payment' AND (intent.gear_item_id IS NOT NULL OR intent.promo_code_id IS NOT NULL)
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION intents_count_open_holds() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  owner uuid;
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    owner := hold_counted_owner(OLD);
    IF owner IS NOT NULL THEN
      UPDATE open_hold_counts SET n = n - 1 WHERE user_id = owner AND bucket = hold_bucket(OLD.expires_at);
    END IF;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    owner := hold_counted_owner(NEW);
    IF owner IS NOT NULL THEN
      INSERT INTO open_hold_counts (user_id, bucket, n) VALUES (owner, hold_bucket(NEW.expires_at), 1)
      ON CONFLICT (user_id, bucket) DO UPDATE SET n = open_hold_counts.n + 1;
    END IF;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER intents_count_open_holds_insert AFTER INSERT ON intents
  FOR EACH ROW WHEN (NEW.status = 'requires_payment' AND (NEW.gear_item_id IS NOT NULL OR NEW.promo_code_id IS NOT NULL))
  EXECUTE FUNCTION intents_count_open_holds();
--> statement-breakpoint
CREATE TRIGGER intents_count_open_holds_update AFTER UPDATE OF status, expires_at, token_id, gear_item_id, promo_code_id ON intents
  FOR EACH ROW WHEN (OLD.status = 'requires_payment' OR NEW.status = 'requires_payment')
  EXECUTE FUNCTION intents_count_open_holds();
--> statement-breakpoint
CREATE TRIGGER intents_count_open_holds_delete AFTER DELETE ON intents
  FOR EACH ROW WHEN (OLD.status = 'requires_payment')
  EXECUTE FUNCTION intents_count_open_holds();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION intents_truncate_open_holds() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  TRUNCATE open_hold_counts;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER intents_truncate_open_holds AFTER TRUNCATE ON intents
  FOR EACH STATEMENT EXECUTE FUNCTION intents_truncate_open_holds();
--> statement-breakpoint
INSERT INTO open_hold_counts (user_id, bucket, n)
SELECT hold_counted_owner(i), hold_bucket(i.expires_at), count(*)
  FROM intents i
 WHERE i.status = 'requires_payment' AND (i.gear_item_id IS NOT NULL OR i.promo_code_id IS NOT NULL)
   AND hold_counted_owner(i) IS NOT NULL AND hold_bucket(i.expires_at) > now()
 GROUP BY 1, 2;
--> statement-breakpoint
-- The open-holds caps (lib/services/holds.ts says who gets which): judges, in order, the intents
-- about to be inserted and answers each one's client key to record (null when no address cap
-- applies), or raises on the first that a cap refuses: GKHLD (DETAIL scope:max) or GKHCD
-- (DETAIL scope:code, a code the session or account already holds open). Every counter involved is
-- locked (advisory, in key order: every caller locks in that order, so none waits in a circle)
-- before it is counted, and each count is a statement of its own, so it sees every hold committed
-- before the lock: concurrent callers are judged one at a time. An account's or a partner's count is
-- the sum of its live spans in open_hold_counts (an intent counts until at most 10 s past its
-- expiry); a session's and an address's, capped at a few, are counted from their intents. One call
-- per batch of inserts: lib/services/intents.ts calls it from the batch's own INSERT, so a batch is
-- still one statement.
-- Expiry is counted as a FILTER, never in the WHERE (drizzle/0024).
CREATE OR REPLACE FUNCTION claim_hold_slots(request jsonb) RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
  lim jsonb := request -> 'limits';
  ttl interval := make_interval(secs => (lim ->> 'ttl')::double precision);
  holds jsonb := request -> 'holds';
  caps jsonb;
  counters jsonb := '{}';
  holder_keys jsonb := '[]';
  keys text[];
  h jsonb;
  c jsonb;
  k text;
  n integer;
  codes jsonb;
  code_text text;
  result jsonb := '[]';
BEGIN
  SELECT coalesce(jsonb_object_agg(p.user_id::text, coalesce(p.hold_cap, (lim ->> 'partner')::integer)), '{}') INTO caps
    FROM partners p
   WHERE p.user_id IN (SELECT (x ->> 'user')::uuid FROM jsonb_array_elements(holds) x WHERE NOT (x ->> 'guest')::boolean);

  FOR h IN SELECT x FROM jsonb_array_elements(holds) x LOOP
    IF (h ->> 'guest')::boolean THEN
      k := 'hold:token:' || (h ->> 'token');
      counters := counters || jsonb_build_object(k, jsonb_build_object('scope', 'session', 'max', (lim ->> 'session')::integer, 'id', h ->> 'token'));
    ELSIF caps ? (h ->> 'user') THEN
      k := 'hold:user:' || (h ->> 'user');
      counters := counters || jsonb_build_object(k, jsonb_build_object('scope', 'partner', 'max', (caps ->> (h ->> 'user'))::integer, 'id', h ->> 'user'));
    ELSE
      k := 'hold:user:' || (h ->> 'user');
      counters := counters || jsonb_build_object(k, jsonb_build_object('scope', 'account', 'max', (lim ->> 'account')::integer, 'id', h ->> 'user'));
    END IF;
    keys := ARRAY[k];
    -- Every client address is capped, except a partner's servers calling the API.
    IF h ->> 'client' IS NOT NULL AND ((h ->> 'guest')::boolean OR NOT caps ? (h ->> 'user') OR h ->> 'purpose' = 'storefront') THEN
      k := 'hold:addr:' || (h ->> 'client');
      counters := counters || jsonb_build_object(k, jsonb_build_object('scope', 'address', 'max', (lim ->> 'address')::integer, 'id', h ->> 'client'));
      keys := keys || k;
    END IF;
    holder_keys := holder_keys || jsonb_build_array(to_jsonb(keys));
  END LOOP;

  PERFORM pg_advisory_xact_lock(hashtextextended(key, 0)) FROM (SELECT key FROM jsonb_object_keys(counters) AS key ORDER BY key) AS ordered;

  FOR k, c IN SELECT * FROM jsonb_each(counters) LOOP
    codes := '[]';
    IF c ->> 'scope' = 'session' THEN
      SELECT count(*) FILTER (WHERE i.expires_at > now()),
             coalesce(jsonb_agg(i.promo_code_id) FILTER (WHERE i.expires_at > now() AND i.promo_code_id IS NOT NULL), '[]')
        INTO n, codes
        FROM intents i
       WHERE i.token_id = (c ->> 'id')::uuid
         AND i.status = 'requires_payment' AND (i.gear_item_id IS NOT NULL OR i.promo_code_id IS NOT NULL);
    ELSIF c ->> 'scope' = 'address' THEN
      SELECT count(*) FILTER (WHERE i.expires_at > now()) INTO n
        FROM intents i
       WHERE i.client_key = c ->> 'id'
         AND i.status = 'requires_payment' AND (i.gear_item_id IS NOT NULL OR i.promo_code_id IS NOT NULL);
    ELSE
      SELECT coalesce(sum(o.n), 0) INTO n FROM open_hold_counts o WHERE o.user_id = (c ->> 'id')::uuid AND o.bucket > now();
      -- The codes an account holds open, only when a code is asked for (an account holds a few).
      -- Tokens expired or revoked more than an intent's lifetime ago hold nothing any more.
      IF c ->> 'scope' = 'account' AND jsonb_path_exists(holds, '$[*] ? (@.code != null)') THEN
        SELECT coalesce(jsonb_agg(i.promo_code_id) FILTER (WHERE i.expires_at > now() AND i.promo_code_id IS NOT NULL), '[]')
          INTO codes
          FROM intents i
         WHERE i.token_id IN (SELECT t.id FROM api_tokens t WHERE t.user_id = (c ->> 'id')::uuid
                                AND (t.expires_at IS NULL OR t.expires_at > now() - ttl)
                                AND (t.revoked_at IS NULL OR t.revoked_at > now() - ttl))
           AND i.status = 'requires_payment' AND (i.gear_item_id IS NOT NULL OR i.promo_code_id IS NOT NULL);
      END IF;
    END IF;
    counters := jsonb_set(counters, ARRAY[k], c || jsonb_build_object('n', n, 'codes', codes));
  END LOOP;

  FOR idx IN 0 .. jsonb_array_length(holds) - 1 LOOP
    h := holds -> idx;
    keys := ARRAY(SELECT jsonb_array_elements_text(holder_keys -> idx));
    FOREACH k IN ARRAY keys LOOP
      c := counters -> k;
      IF (c ->> 'n')::integer >= (c ->> 'max')::integer THEN
        RAISE EXCEPTION 'the % holds its most open holds', c ->> 'scope' USING ERRCODE = 'GKHLD', DETAIL = (c ->> 'scope') || ':' || (c ->> 'max');
      END IF;
    END LOOP;
    -- A session or an account that is not a partner holds one open use of any one code.
    IF h ->> 'code' IS NOT NULL THEN
      FOREACH k IN ARRAY keys LOOP
        c := counters -> k;
        IF c ->> 'scope' IN ('session', 'account') AND (c -> 'codes') @> to_jsonb((h ->> 'code')::integer) THEN
          SELECT code INTO code_text FROM promo_codes WHERE id = (h ->> 'code')::integer;
          RAISE EXCEPTION 'the % holds this promo code open', c ->> 'scope' USING ERRCODE = 'GKHCD', DETAIL = (c ->> 'scope') || ':' || code_text;
        END IF;
      END LOOP;
    END IF;
    FOREACH k IN ARRAY keys LOOP
      c := counters -> k;
      counters := jsonb_set(counters, ARRAY[k], c || jsonb_build_object(
        'n', (c ->> 'n')::integer + 1,
        'codes', CASE WHEN h ->> 'code' IS NULL THEN c -> 'codes' ELSE (c -> 'codes') || to_jsonb((h ->> 'code')::integer) END));
    END LOOP;
    result := result || jsonb_build_array(CASE WHEN array_length(keys, 1) > 1 THEN to_jsonb(h ->> 'client') ELSE 'null'::jsonb END);
  END LOOP;
  RETURN result;
END
$$;
