CREATE TABLE "api_tokens" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"name" text NOT NULL,
	"prefix" text NOT NULL,
	"token_hash" text NOT NULL,
	"scopes" text[] NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	"last_used_at" timestamp with time zone,
	CONSTRAINT "api_tokens_scopes_known" CHECK (cardinality("api_tokens"."scopes") > 0 AND "api_tokens"."scopes" <@ ARRAY['catalog:read', 'gifts:verify', 'gear:create']::text[]),
	CONSTRAINT "api_tokens_name_length" CHECK (length("api_tokens"."name") BETWEEN 1 AND 100)
);
--> statement-breakpoint
CREATE TABLE "games" (
	"app_id" integer PRIMARY KEY NOT NULL,
	"slug" text GENERATED ALWAYS AS ('store-' || app_id::text) STORED NOT NULL,
	"title" text NOT NULL,
	"title_ru" text,
	"short_description" text NOT NULL,
	"short_description_en" text,
	"header_image" text,
	"genres" text[] DEFAULT '{}' NOT NULL,
	"genre_keys" text[] DEFAULT '{}' NOT NULL,
	"featured" text[] DEFAULT '{}' NOT NULL,
	"coming_soon" boolean DEFAULT false NOT NULL,
	"release_date" date,
	"sort_rank" integer NOT NULL,
	"gift_regions" text[] DEFAULT '{}' NOT NULL,
	"search" "tsvector" GENERATED ALWAYS AS (setweight(to_tsvector('simple', title || ' ' || coalesce(title_ru, '')), 'A')
          || setweight(to_tsvector('english', title), 'A')
          || setweight(to_tsvector('russian', coalesce(title_ru, '')), 'A')
          || setweight(to_tsvector('simple', short_description || ' ' || coalesce(short_description_en, '')), 'B')
          || setweight(to_tsvector('russian', short_description), 'B')
          || setweight(to_tsvector('english', coalesce(short_description_en, '')), 'B')) STORED NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "games_app_id_positive" CHECK ("games"."app_id" > 0),
	CONSTRAINT "games_featured_known" CHECK ("games"."featured" <@ ARRAY['top_sellers', 'new_releases']::text[])
);
--> statement-breakpoint
CREATE TABLE "gear_items" (
	"id" serial PRIMARY KEY NOT NULL,
	"platform_app_id" integer NOT NULL,
	"item" text NOT NULL,
	"title" text NOT NULL,
	"price" integer NOT NULL,
	"stock" integer NOT NULL,
	CONSTRAINT "gear_items_price_positive" CHECK ("gear_items"."price" > 0),
	CONSTRAINT "gear_items_stock_not_negative" CHECK ("gear_items"."stock" >= 0)
);
--> statement-breakpoint
CREATE TABLE "intents" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" text NOT NULL,
	"status" text DEFAULT 'requires_payment' NOT NULL,
	"token_id" uuid NOT NULL,
	"app_id" integer NOT NULL,
	"package_id" integer,
	"gear_item_id" integer,
	"gift_region" text,
	"invite_url" text,
	"account" text,
	"trade_link" text,
	"store_id" text,
	"email" text NOT NULL,
	"fee_mode" text NOT NULL,
	"promo_code_id" integer,
	"intent_amount" integer NOT NULL,
	"discount_amount" integer NOT NULL,
	"fee_amount" integer NOT NULL,
	"payment_amount" integer NOT NULL,
	"currency" text DEFAULT 'RUB' NOT NULL,
	"attribution" jsonb,
	"success_url" text,
	"failure_url" text,
	"callback_url" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "intents_kind_shape" CHECK (("intents"."kind" = 'gift' AND "intents"."package_id" IS NOT NULL AND "intents"."gear_item_id" IS NULL AND "intents"."gift_region" IS NOT NULL AND "intents"."invite_url" IS NOT NULL)
        OR ("intents"."kind" = 'gear' AND "intents"."gear_item_id" IS NOT NULL AND "intents"."package_id" IS NULL AND "intents"."account" IS NOT NULL)),
	CONSTRAINT "intents_amounts" CHECK ("intents"."intent_amount" > 0 AND "intents"."discount_amount" >= 0 AND "intents"."discount_amount" < "intents"."intent_amount"
        AND "intents"."fee_amount" >= 0 AND "intents"."payment_amount" > 0),
	CONSTRAINT "intents_currency_rub" CHECK ("intents"."currency" = 'RUB')
);
--> statement-breakpoint
CREATE TABLE "packages" (
	"package_id" integer PRIMARY KEY NOT NULL,
	"app_id" integer NOT NULL,
	"title" text NOT NULL,
	"is_main" boolean DEFAULT false NOT NULL,
	"position" smallint DEFAULT 0 NOT NULL,
	"price_initial" integer,
	"price_final" integer,
	"discount_percent" smallint DEFAULT 0 NOT NULL,
	CONSTRAINT "packages_price_consistent" CHECK (("packages"."price_final" IS NULL AND "packages"."price_initial" IS NULL AND "packages"."discount_percent" = 0)
        OR ("packages"."price_final" > 0 AND "packages"."price_initial" >= "packages"."price_final"
            AND "packages"."discount_percent" BETWEEN 0 AND 99
            AND ("packages"."discount_percent" = 0) = ("packages"."price_initial" = "packages"."price_final")))
);
--> statement-breakpoint
CREATE TABLE "promo_codes" (
	"id" serial PRIMARY KEY NOT NULL,
	"code" text NOT NULL,
	"kind" text NOT NULL,
	"value" integer NOT NULL,
	"applies_to" text DEFAULT 'all' NOT NULL,
	"app_ids" integer[],
	"valid_from" timestamp with time zone,
	"valid_until" timestamp with time zone,
	"max_uses" integer,
	"uses" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "promo_codes_code_upper" CHECK ("promo_codes"."code" = upper("promo_codes"."code") AND length("promo_codes"."code") BETWEEN 1 AND 64),
	CONSTRAINT "promo_codes_value_range" CHECK (("promo_codes"."kind" = 'percent' AND "promo_codes"."value" BETWEEN 1 AND 100) OR ("promo_codes"."kind" = 'fixed' AND "promo_codes"."value" > 0)),
	CONSTRAINT "promo_codes_uses_within_limit" CHECK ("promo_codes"."uses" >= 0 AND ("promo_codes"."max_uses" IS NULL OR "promo_codes"."uses" <= "promo_codes"."max_uses"))
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"email" text NOT NULL,
	"name" text,
	"password_hash" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "api_tokens" ADD CONSTRAINT "api_tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gear_items" ADD CONSTRAINT "gear_items_platform_app_id_games_app_id_fk" FOREIGN KEY ("platform_app_id") REFERENCES "public"."games"("app_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "intents" ADD CONSTRAINT "intents_token_id_api_tokens_id_fk" FOREIGN KEY ("token_id") REFERENCES "public"."api_tokens"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "intents" ADD CONSTRAINT "intents_app_id_games_app_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."games"("app_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "intents" ADD CONSTRAINT "intents_package_id_packages_package_id_fk" FOREIGN KEY ("package_id") REFERENCES "public"."packages"("package_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "intents" ADD CONSTRAINT "intents_gear_item_id_gear_items_id_fk" FOREIGN KEY ("gear_item_id") REFERENCES "public"."gear_items"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "intents" ADD CONSTRAINT "intents_promo_code_id_promo_codes_id_fk" FOREIGN KEY ("promo_code_id") REFERENCES "public"."promo_codes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "packages" ADD CONSTRAINT "packages_app_id_games_app_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."games"("app_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "api_tokens_hash_key" ON "api_tokens" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "api_tokens_user_idx" ON "api_tokens" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "games_slug_key" ON "games" USING btree ("slug");--> statement-breakpoint
CREATE INDEX "games_sort_idx" ON "games" USING btree ("sort_rank","app_id");--> statement-breakpoint
CREATE INDEX "games_genre_keys_idx" ON "games" USING gin ("genre_keys");--> statement-breakpoint
CREATE INDEX "games_featured_idx" ON "games" USING gin ("featured");--> statement-breakpoint
CREATE INDEX "games_search_idx" ON "games" USING gin ("search");--> statement-breakpoint
CREATE INDEX "games_coming_soon_idx" ON "games" USING btree ("sort_rank","app_id") WHERE coming_soon;--> statement-breakpoint
CREATE UNIQUE INDEX "gear_items_platform_item_key" ON "gear_items" USING btree ("platform_app_id","item");--> statement-breakpoint
CREATE INDEX "intents_live_gear_idx" ON "intents" USING btree ("gear_item_id","expires_at") WHERE status = 'requires_payment';--> statement-breakpoint
CREATE INDEX "intents_token_idx" ON "intents" USING btree ("token_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "packages_one_main_per_game" ON "packages" USING btree ("app_id") WHERE is_main;--> statement-breakpoint
CREATE INDEX "packages_app_idx" ON "packages" USING btree ("app_id","position");--> statement-breakpoint
CREATE INDEX "packages_discounted_idx" ON "packages" USING btree ("app_id") WHERE is_main AND discount_percent > 0;--> statement-breakpoint
CREATE UNIQUE INDEX "promo_codes_code_key" ON "promo_codes" USING btree ("code");--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_key" ON "users" USING btree (lower("email"));