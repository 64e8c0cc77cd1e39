import crypto from "node:crypto";
import path from "node:path";
import type pg from "pg";
import type { TestProject } from "vitest/node";
import { createDb, createPool } from "@/lib/db/client";
import { startEmbeddedPostgres, stopEmbeddedPostgres, type DatabaseHandle } from "@/lib/db/embedded";
import { migrateDatabase } from "@/lib/db/migrate";
import { env } from "@/lib/env";
import { seedDemoData } from "@/lib/demo/seed";
import { createDatabase, dropAppRole, freeLoopbackPort, withClient } from "@/scripts/lib/processes";

declare module "vitest" {
  export interface ProvidedContext {
    /** Superuser URL of the test server; tests create their databases through it. */
    pgAdminUrl: string;
    /** A migrated, seeded database that `createTestDatabase()` clones. */
    pgTemplateDb: string;
  }
}

const TEMPLATE_GAMES = 300;

/**
 * Uses DATABASE_URL when set (CI's throwaway cluster), otherwise an embedded PostgreSQL in
 * `.data/test-pg` (or, run as root from a private home, where `.data/test-pg.location` points), so
 * `npm test` works on a fresh clone with nothing configured.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const server = await testServer(project.config.root);
  const template = `gk_template_${process.pid}_${crypto.randomBytes(3).toString("hex")}`;
  try {
    if (server.dataDir) await dropAbandonedDatabases(server.url);
    await createTemplate(server.url, template);
  } catch (err) {
    await server.stop();
    throw err;
  }
  project.provide("pgAdminUrl", server.url);
  project.provide("pgTemplateDb", template);

  return async () => {
    try {
      await dropRunDatabases(server.url, template);
    } finally {
      await stopIfLastRun(server);
    }
  };
}

/**
 * Several runs (two projects of one run, or two people's runs in one work tree) share the embedded
 * server in `.data/test-pg`. The last one to finish stops it, whichever started it.
 */
async function stopIfLastRun(server: DatabaseHandle): Promise<void> {
  if (!server.dataDir) return;
  const others = await withClient(server.url, async (c) => {
    const { rows } = await c.query<{ datname: string }>("SELECT datname FROM pg_database WHERE datname ~ '^gk_template_[0-9]+_'");
    return rows.filter(({ datname }) => isAlive(Number(datname.split("_")[2])));
  }).catch(() => []);
  if (others.length === 0) await stopEmbeddedPostgres(server.dataDir);
}

async function testServer(root: string): Promise<DatabaseHandle> {
  if (env.DATABASE_URL) {
    return { url: env.DATABASE_URL, appUrl: env.DATABASE_URL, startedHere: false, dataDir: null, stop: async () => {} };
  }
  // Durability is worthless for test data and costs most of the time the suite spends writing.
  return startEmbeddedPostgres({
    dataDir: path.join(root, ".data/test-pg"),
    port: await freeLoopbackPort(),
    database: "postgres",
    settings: { fsync: "off", synchronous_commit: "off", full_page_writes: "off" },
  });
}

async function createTemplate(adminUrl: string, template: string): Promise<void> {
  const url = await createDatabase(adminUrl, template);
  await migrateDatabase(url);
  const pool = createPool(url, 4);
  try {
    await seedDemoData(createDb(pool), { games: TEMPLATE_GAMES });
  } finally {
    await pool.end();
  }
  // Cloning needs a template nobody is connected to; refusing connections keeps it that way.
  await withClient(adminUrl, (c) =>
    c.query(`ALTER DATABASE ${c.escapeIdentifier(template)} WITH IS_TEMPLATE true ALLOW_CONNECTIONS false`),
  );
}

/** The template and any test database a test forgot to close. */
async function dropRunDatabases(adminUrl: string, template: string): Promise<void> {
  const testPrefix = template.replace(/^gk_template_/, "gk_test_");
  await withClient(adminUrl, async (c) => {
    const { rows } = await c.query<{ datname: string }>("SELECT datname FROM pg_database WHERE datname = $1 OR starts_with(datname, $2)", [
      template,
      `${testPrefix}_`,
    ]);
    for (const { datname } of rows) await dropEvenTemplate(c, datname);
  });
}

/** Databases left on the persistent embedded server by runs that were killed (their pid is gone), and their app roles. */
async function dropAbandonedDatabases(adminUrl: string): Promise<void> {
  await withClient(adminUrl, async (c) => {
    const { rows } = await c.query<{ datname: string }>("SELECT datname FROM pg_database WHERE datname ~ '^gk_(template|test)_[0-9]+_'");
    for (const { datname } of rows) {
      const pid = Number(datname.split("_")[2]);
      if (!isAlive(pid)) await dropEvenTemplate(c, datname);
    }
    const roles = await c.query<{ rolname: string }>("SELECT rolname FROM pg_roles WHERE rolname ~ '^gk_test_[0-9]+_.*_app$'");
    for (const { rolname } of roles.rows) {
      if (!isAlive(Number(rolname.split("_")[2]))) await c.query(`DROP ROLE IF EXISTS ${c.escapeIdentifier(rolname)}`);
    }
  });
}

/** A template has to be unmarked before it can be dropped. */
async function dropEvenTemplate(c: pg.Client, name: string): Promise<void> {
  const ident = c.escapeIdentifier(name);
  await c.query(`ALTER DATABASE ${ident} WITH IS_TEMPLATE false`);
  await c.query(`DROP DATABASE IF EXISTS ${ident} WITH (FORCE)`);
  await dropAppRole(c, name);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as { code?: string }).code === "EPERM";
  }
}
