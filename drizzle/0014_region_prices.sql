CREATE TABLE "currency_rates" (
	"currency" text NOT NULL,
	"as_of" date NOT NULL,
	"rub_micros_per_unit" bigint NOT NULL,
	CONSTRAINT "currency_rates_currency_as_of_pk" PRIMARY KEY("currency","as_of"),
	CONSTRAINT "currency_rates_currency_code" CHECK ("currency_rates"."currency" ~ '^[A-Z]{3}$'),
	CONSTRAINT "currency_rates_positive" CHECK ("currency_rates"."rub_micros_per_unit" > 0)
);
--> statement-breakpoint
CREATE TABLE "giftable_games" (
	"region" text NOT NULL,
	"app_id" integer NOT NULL,
	"sort_rank" integer NOT NULL,
	CONSTRAINT "giftable_games_region_app_id_pk" PRIMARY KEY("region","app_id")
);
--> statement-breakpoint
CREATE TABLE "package_region_prices" (
	"package_id" integer NOT NULL,
	"region" text NOT NULL,
	"currency" text NOT NULL,
	"amount" integer,
	"restricted" boolean DEFAULT false NOT NULL,
	CONSTRAINT "package_region_prices_package_id_region_pk" PRIMARY KEY("package_id","region"),
	CONSTRAINT "package_region_prices_region_code" CHECK ("package_region_prices"."region" ~ '^[A-Z]{2}$'),
	CONSTRAINT "package_region_prices_currency_code" CHECK ("package_region_prices"."currency" ~ '^[A-Z]{3}$'),
	CONSTRAINT "package_region_prices_priced_unless_restricted" CHECK ("package_region_prices"."restricted" OR "package_region_prices"."amount" > 0)
);
--> statement-breakpoint
ALTER TABLE "giftable_games" ADD CONSTRAINT "giftable_games_app_id_games_app_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."games"("app_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "package_region_prices" ADD CONSTRAINT "package_region_prices_package_id_packages_package_id_fk" FOREIGN KEY ("package_id") REFERENCES "public"."packages"("package_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "giftable_games_region_sort_idx" ON "giftable_games" USING btree ("region","sort_rank","app_id");