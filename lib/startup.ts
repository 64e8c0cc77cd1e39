import "server-only";
import { sql } from "drizzle-orm";
import { authSecret } from "@/lib/auth/secret";
import type { Database } from "@/lib/db/client";
import { log } from "@/lib/log";

/**
 * What a server checks before it takes requests, so a misconfiguration stops it at start with
 * the reason rather than failing a shopper later. (lib/env.ts has already validated every variable.)
 */
export function checkStartupConfiguration(): void {
  try {
    authSecret();
  } catch (err) {
    log.fatal({ area: "startup" }, `Cannot start: ${(err as Error).message}`);
    log.flush();
    process.exit(1);
  }
}

/**
 * Warns once, at start, when DATABASE_URL logs in as more than the app needs: a superuser, or the
 * owner of the tables (then the audit log and everything else is the app's to drop). The app still
 * works; docs/deployment.md says how to give it a role of its own.
 */
export async function warnIfPrivilegedDatabaseRole(db: Database): Promise<void> {
  try {
    const { rows } = await db.execute<{ role: string; superuser: boolean; owner: boolean }>(sql`
      SELECT r.rolname AS role, r.rolsuper AS superuser,
             EXISTS (SELECT 1 FROM pg_class c WHERE c.relowner = r.oid AND c.relnamespace = 'public'::regnamespace) AS owner
      FROM pg_roles r WHERE r.rolname = current_user`);
    const role = rows[0];
    if (role && (role.superuser || role.owner)) {
      log.warn(
        { area: "startup", role: role.role, superuser: role.superuser, owner: role.owner },
        "DATABASE_URL connects as a superuser or the tables' owner: give the app a role of its own (docs/deployment.md, Database roles)",
      );
    }
  } catch (err) {
    // The database may not be up yet; /api/ready reports that.
    log.debug({ area: "startup", err }, "could not check the database role");
  }
}
