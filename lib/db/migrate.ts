import path from "node:path";
import { migrate } from "drizzle-orm/node-postgres/migrator";
import pg from "pg";
import { createDb } from "./client";
import { grantAppPrivileges, MIGRATION_LOCK, roleOf } from "./roles";

/**
 * Applies the committed migrations in `drizzle/` as the owner `url` logs in as; safe to call from
 * several starting instances at once. With `appUrl` (the URL the app runs with, as another role),
 * that role's privileges are then applied again (lib/db/roles.ts), so every table a migration added
 * is granted before the app uses it.
 */
export async function migrateDatabase(url: string, options: { appUrl?: string } = {}): Promise<void> {
  const appRole = options.appUrl && roleOf(options.appUrl) !== roleOf(url) ? roleOf(options.appUrl) : null;
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  const client = await pool.connect();
  try {
    await client.query("SELECT pg_advisory_lock($1)", [MIGRATION_LOCK]);
    await migrate(createDb(pool), { migrationsFolder: path.resolve(process.cwd(), "drizzle") });
    if (appRole) {
      await client.query("BEGIN");
      await grantAppPrivileges(client, appRole);
      await client.query("COMMIT");
    }
  } catch (err) {
    await client.query("ROLLBACK").catch(() => {});
    throw err;
  } finally {
    await client.query("SELECT pg_advisory_unlock($1)", [MIGRATION_LOCK]).catch(() => {});
    client.release();
    await pool.end();
  }
}
