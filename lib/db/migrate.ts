import path from "node:path";
import { migrate } from "drizzle-orm/node-postgres/migrator";
import pg from "pg";
import { createDb } from "./client";

const MIGRATION_LOCK = 7_240_001;

/** Applies the committed migrations in `drizzle/`; safe to call from several starting instances at once. */
export async function migrateDatabase(url: string): Promise<void> {
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  const client = await pool.connect();
  try {
    await client.query("SELECT pg_advisory_lock($1)", [MIGRATION_LOCK]);
    await migrate(createDb(pool), { migrationsFolder: path.resolve(process.cwd(), "drizzle") });
  } finally {
    await client.query("SELECT pg_advisory_unlock($1)", [MIGRATION_LOCK]).catch(() => {});
    client.release();
    await pool.end();
  }
}
