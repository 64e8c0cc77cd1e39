// A throwaway copy of the app for browser tests and Lighthouse: its own seeded database on the
// test PostgreSQL server and `next start` of the current build on a free loopback port.
import { spawnSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { startEmbeddedPostgres, type DatabaseHandle } from "@/lib/db/embedded";
import { createDatabase, dropDatabase, freeLoopbackPort, startNextProcess, stopChild, type NextProcess } from "./processes";

const root = path.resolve(import.meta.dirname, "../..");

export interface AppUnderTest {
  baseUrl: string;
  databaseUrl: string;
  stop(): Promise<void>;
}

export interface AppUnderTestOptions {
  /** Names the database and the server log (`.data/test-logs/next-<name>.log`). */
  name: string;
  games: number;
  /** Where an embedded server keeps its data when DATABASE_URL is not set. */
  embeddedDir: string;
  env?: Record<string, string>;
}

/**
 * DATABASE_URL (a superuser URL, as in CI) names the server to create the database on; without it
 * an embedded PostgreSQL starts in `embeddedDir` and stops again with the app.
 */
export async function startAppUnderTest(options: AppUnderTestOptions): Promise<AppUnderTest> {
  const server = await databaseServer(options.embeddedDir);
  const dbName = `gk_${options.name}_${process.pid}_${crypto.randomBytes(3).toString("hex")}`;
  let app: NextProcess | null = null;
  const stop = async () => {
    if (app) await stopChild(app.child);
    await dropDatabase(server.url, dbName).catch(() => {});
    if (server.startedHere) await server.stop();
  };
  try {
    const databaseUrl = await createDatabase(server.url, dbName);
    // The operator CLI migrates, then seeds: the same path a new user's first start takes.
    run("seed", ["node_modules/.bin/tsx", "--conditions=react-server", "scripts/db-seed.ts", "--games", String(options.games)], {
      DATABASE_URL: databaseUrl,
    });
    if (!fs.existsSync(path.join(root, ".next/BUILD_ID"))) run("build", ["node_modules/.bin/next", "build"], {});
    app = await startNextProcess(`next-${options.name}`, { ...options.env, DATABASE_URL: databaseUrl });
    return { baseUrl: app.baseUrl, databaseUrl, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

async function databaseServer(embeddedDir: string): Promise<DatabaseHandle> {
  if (process.env.DATABASE_URL) {
    return { url: process.env.DATABASE_URL, appUrl: process.env.DATABASE_URL, startedHere: false, dataDir: null, stop: async () => {} };
  }
  // Durability is worthless for throwaway data.
  return startEmbeddedPostgres({
    dataDir: path.join(root, embeddedDir),
    port: await freeLoopbackPort(),
    database: "postgres",
    settings: { fsync: "off", synchronous_commit: "off", full_page_writes: "off" },
  });
}

function run(title: string, [command, ...args]: string[], env: Record<string, string>): void {
  const result = spawnSync(path.join(root, command!), args, { cwd: root, stdio: "inherit", env: { ...process.env, ...env } });
  if (result.status !== 0) throw new Error(`${title} failed (exit ${result.status})`);
}
