import "server-only";
import { sql } from "drizzle-orm";
import journal from "@/drizzle/meta/_journal.json";
import type { Database } from "@/lib/db/client";
import { SQLSTATE, sqlStateOf } from "@/lib/db/errors";

export type Readiness = { ready: true; migrations: number } | { ready: false; reason: string };

const CHECK_TIMEOUT_MS = 2_000;
/** Drizzle records each applied migration with its journal timestamp (`when`). */
const latestMigration = Math.max(...journal.entries.map((e) => e.when));

/**
 * Ready to serve: the database answers within the timeout and has every migration this build
 * ships. A load balancer takes an instance out of rotation while either is false.
 */
export async function checkReadiness(db: Database): Promise<Readiness> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<Readiness>((resolve) => {
    timer = setTimeout(
      () => resolve({ ready: false, reason: `the database did not answer within ${CHECK_TIMEOUT_MS} ms` }),
      CHECK_TIMEOUT_MS,
    );
  });
  const check = (async (): Promise<Readiness> => {
    try {
      const result = await db.execute<{ latest: string | null }>(
        sql`SELECT max(created_at)::text AS latest FROM drizzle.__drizzle_migrations`,
      );
      const latest = Number(result.rows[0]?.latest ?? 0);
      if (latest < latestMigration) return { ready: false, reason: "database migrations are not all applied" };
      return { ready: true, migrations: journal.entries.length };
    } catch (err) {
      // No migrations table (42P01) or schema (3F000): reachable, but never migrated.
      const code = sqlStateOf(err);
      if (code === SQLSTATE.undefinedTable || code === SQLSTATE.invalidSchemaName)
        return { ready: false, reason: "database migrations are not all applied" };
      return { ready: false, reason: "the database is unreachable" };
    }
  })();
  try {
    return await Promise.race([check, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
