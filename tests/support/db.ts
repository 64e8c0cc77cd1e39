import crypto from "node:crypto";
import type pg from "pg";
import { inject } from "vitest";
import { createDb, createPool, type Database } from "@/lib/db/client";
import { appRoleUrl, createDatabase, dropDatabase } from "@/scripts/lib/processes";

export interface TestDatabase {
  /** The owner's URL: what migrations and these tests use. */
  url: string;
  /** The URL of the database's app role (made on first use), as the app itself connects. */
  appUrl(): Promise<string>;
  db: Database;
  pool: pg.Pool;
  close(): Promise<void>;
}

/** A fresh database cloned from the migrated, seeded template that the global setup made. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const adminUrl = inject("pgAdminUrl");
  const template = inject("pgTemplateDb");
  // Named after the run's template so the global teardown can drop what a test forgot to close.
  const name = `${template.replace(/^gk_template_/, "gk_test_")}_${crypto.randomBytes(4).toString("hex")}`;
  const url = await createDatabase(adminUrl, name, { template });
  const pool = createPool(url);
  let closing: Promise<void> | undefined;
  return {
    url,
    appUrl: () => appRoleUrl(url),
    pool,
    db: createDb(pool),
    close: () =>
      (closing ??= (async () => {
        await pool.end();
        await dropDatabase(adminUrl, name);
      })()),
  };
}

/** A database with nothing in it, not even the migrations, named so the global teardown finds it. */
export async function createEmptyDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const adminUrl = inject("pgAdminUrl");
  const name = `${inject("pgTemplateDb").replace(/^gk_template_/, "gk_test_")}_${crypto.randomBytes(4).toString("hex")}`;
  return { url: await createDatabase(adminUrl, name), drop: () => dropDatabase(adminUrl, name) };
}

export { freeLoopbackPort } from "@/scripts/lib/processes";
