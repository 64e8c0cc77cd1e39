// A throwaway copy of the app for browser tests and Lighthouse: its own seeded database on the
// test PostgreSQL server and `next start` of the current build on a free loopback port.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import { startEmbeddedPostgres, type DatabaseHandle } from "@/lib/db/embedded";
import { freeLoopbackPort, stopChild } from "./processes";

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
  let app: ChildProcess | null = null;
  const stop = async () => {
    if (app) await stopChild(app);
    await admin(server.url, (c) => c.query(`DROP DATABASE IF EXISTS ${c.escapeIdentifier(dbName)} WITH (FORCE)`)).catch(() => {});
    if (server.startedHere) await server.stop();
  };
  try {
    await admin(server.url, (c) => c.query(`CREATE DATABASE ${c.escapeIdentifier(dbName)}`));
    const databaseUrl = withDatabase(server.url, dbName);
    // The operator CLI migrates, then seeds: the same path a new user's first start takes.
    run("seed", ["node_modules/.bin/tsx", "--conditions=react-server", "scripts/db-seed.ts", "--games", String(options.games)], {
      DATABASE_URL: databaseUrl,
    });
    if (!fs.existsSync(path.join(root, ".next/BUILD_ID"))) run("build", ["node_modules/.bin/next", "build"], {});
    const port = await freeLoopbackPort();
    const logFile = path.join(root, `.data/test-logs/next-${options.name}.log`);
    fs.mkdirSync(path.dirname(logFile), { recursive: true });
    const log = fs.openSync(logFile, "w");
    app = spawn(process.execPath, ["node_modules/next/dist/bin/next", "start", "-p", String(port), "-H", "127.0.0.1"], {
      cwd: root,
      env: {
        ...process.env,
        NODE_ENV: "production",
        AUTH_SECRET: crypto.randomBytes(32).toString("base64url"),
        ...options.env,
        DATABASE_URL: databaseUrl,
        PORT: String(port),
      },
      stdio: ["ignore", log, log],
    });
    const baseUrl = `http://127.0.0.1:${port}`;
    await waitUntilServing(baseUrl, app, logFile);
    return { baseUrl, databaseUrl, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

async function databaseServer(embeddedDir: string): Promise<DatabaseHandle> {
  if (process.env.DATABASE_URL) {
    return { url: process.env.DATABASE_URL, startedHere: false, dataDir: null, stop: async () => {} };
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

async function admin<T>(url: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

function withDatabase(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${encodeURIComponent(database)}`;
  return url.toString();
}

async function waitUntilServing(baseUrl: string, server: ChildProcess, logFile: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`next start exited with ${server.exitCode}:\n${fs.readFileSync(logFile, "utf8")}`);
    try {
      if ((await fetch(`${baseUrl}/api/v1/openapi.json`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`next start did not answer within 60 s:\n${fs.readFileSync(logFile, "utf8")}`);
}
