import crypto from "node:crypto";
import pg from "pg";
import { inject } from "vitest";
import { createDb, createPool, type Database } from "@/lib/db/client";

export interface TestDatabase {
  url: string;
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
  await adminQuery(adminUrl, (c) => `CREATE DATABASE ${c.escapeIdentifier(name)} TEMPLATE ${c.escapeIdentifier(template)}`);

  const url = databaseUrl(adminUrl, name);
  const pool = createPool(url);
  let closing: Promise<void> | undefined;
  return {
    url,
    pool,
    db: createDb(pool),
    close: () =>
      (closing ??= (async () => {
        await pool.end();
        await adminQuery(adminUrl, (c) => `DROP DATABASE IF EXISTS ${c.escapeIdentifier(name)} WITH (FORCE)`);
      })()),
  };
}

/** A database with nothing in it, not even the migrations, named so the global teardown finds it. */
export async function createEmptyDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const adminUrl = inject("pgAdminUrl");
  const name = `${inject("pgTemplateDb").replace(/^gk_template_/, "gk_test_")}_${crypto.randomBytes(4).toString("hex")}`;
  await adminQuery(adminUrl, (c) => `CREATE DATABASE ${c.escapeIdentifier(name)}`);
  return {
    url: databaseUrl(adminUrl, name),
    drop: () => adminQuery(adminUrl, (c) => `DROP DATABASE IF EXISTS ${c.escapeIdentifier(name)} WITH (FORCE)`),
  };
}

/** `serverUrl` with its database replaced by `database`, keeping credentials and query options. */
export function databaseUrl(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${encodeURIComponent(database)}`;
  return url.toString();
}

export { freeLoopbackPort } from "@/scripts/lib/processes";

export async function adminQuery(adminUrl: string, sql: (client: pg.Client) => string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(sql(client));
  } finally {
    await client.end();
  }
}
