// What the operator CLIs share: usage errors, exit codes and the database they work on.
import { createDb, createPool, type Database } from "@/lib/db/client";
import { resolveDatabaseUrl } from "@/lib/db/embedded";
import { migrateDatabase } from "@/lib/db/migrate";

/** A mistake in how the command was called: exit code 2 and a hint at the usage. */
export class UsageError extends Error {}

/**
 * Runs a CLI's `main`. A UsageError prints `name: message` and `usageHint` and exits 2; any other
 * failure prints `name: message` and exits 1. Output of `main` itself is left alone, so a CLI can
 * keep stdout for its result (the token CLI prints the token alone as its last line).
 */
export function runCli(name: string, main: () => Promise<void>, usageHint: string): void {
  main().catch((err: unknown) => {
    const usage = err instanceof UsageError || isArgumentError(err);
    console.error(`${name}: ${err instanceof Error ? err.message : String(err)}`);
    if (usage) console.error(usageHint);
    process.exitCode = usage ? 2 : 1;
  });
}

/** An unknown option or a missing value, as `node:util` parseArgs reports it. */
function isArgumentError(err: unknown): boolean {
  return String((err as { code?: unknown }).code ?? "").startsWith("ERR_PARSE_ARGS_");
}

/**
 * Runs `work` on the database the app uses, as its owner: DATABASE_OWNER_URL (else DATABASE_URL), or
 * the embedded one (attached to when the app is running, else started for the command and stopped
 * after it). Migrations are applied first, so a command works on a fresh clone before the app has
 * ever started.
 */
export async function withDatabase<T>(work: (db: Database) => Promise<T>, poolSize = 2): Promise<T> {
  const database = await resolveDatabaseUrl();
  const pool = createPool(database.url, poolSize);
  try {
    await migrateDatabase(database.url, { appUrl: database.appUrl });
    return await work(createDb(pool));
  } finally {
    await pool.end();
    await database.stop();
  }
}
