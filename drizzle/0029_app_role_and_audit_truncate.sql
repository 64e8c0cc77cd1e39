-- The app runs as a role that owns nothing (lib/db/roles.ts grants it its privileges after every
-- migration run). What it did as the owner and may no longer do itself goes through functions that
-- run as their owner, each doing one fixed thing.

-- The audit log is append-only (drizzle/0016 refuses UPDATE and DELETE row by row); TRUNCATE fires
-- no row trigger, so it is refused here, to the owner and a superuser alike. The app's role has no
-- TRUNCATE privilege either.
CREATE FUNCTION audit_log_no_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit_log entries are never deleted (TRUNCATE refused)' USING ERRCODE = 'integrity_constraint_violation';
END $$;
--> statement-breakpoint
CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON audit_log
  FOR EACH STATEMENT EXECUTE FUNCTION audit_log_no_truncate();
--> statement-breakpoint
-- Refreshing a materialized view needs its owner (PostgreSQL 15 and 16 have no MAINTAIN privilege).
-- Every catalog write ends with this (refreshCatalogCounts); it takes no argument, so the app can
-- do nothing through it but bring the three views up to date.
CREATE FUNCTION refresh_catalog_views() RETURNS void LANGUAGE plpgsql SECURITY DEFINER
SET search_path = public, pg_temp AS $$
BEGIN
  REFRESH MATERIALIZED VIEW CONCURRENTLY catalog_counts;
  REFRESH MATERIALIZED VIEW CONCURRENTLY giftable_counts;
  REFRESH MATERIALIZED VIEW CONCURRENTLY catalog_checkpoints;
END $$;
--> statement-breakpoint
REVOKE EXECUTE ON FUNCTION refresh_catalog_views() FROM PUBLIC;
