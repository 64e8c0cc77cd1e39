-- UNLOGGED (edited by hand; drizzle-kit has no option for it): a counter bump per request should
-- not wait for a WAL flush, and after a crash the table comes back empty, which only resets windows.
CREATE UNLOGGED TABLE "rate_limits" (
	"key" text NOT NULL,
	"window_start" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"count" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "rate_limits_key_window_start_pk" PRIMARY KEY("key","window_start")
);
--> statement-breakpoint
CREATE INDEX "rate_limits_expires_idx" ON "rate_limits" USING btree ("expires_at");