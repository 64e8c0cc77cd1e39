// npm start / npm run dev: provide a database, migrate and seed it, then run Next with DATABASE_URL set.
import { spawn } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { AUTH_SECRET_FILE, readOrCreateAuthSecret } from "@/lib/auth/secret";
import { createDb, createPool } from "@/lib/db/client";
import { EmbeddedPostgresError, resolveDatabaseUrl, type DatabaseHandle } from "@/lib/db/embedded";
import { migrateDatabase } from "@/lib/db/migrate";
import { seedDemoDataIfEmpty } from "@/lib/demo/seed";
import { env } from "@/lib/env";
import { startServerCluster } from "./lib/server-cluster";

const dev = process.argv.includes("--dev");
const nextBin = createRequire(import.meta.url).resolve("next/dist/bin/next");
// The server cluster kills what is left after SHUTDOWN_TIMEOUT_MS itself; this covers `next dev`.
const FORCE_KILL_AFTER_MS = env.SHUTDOWN_TIMEOUT_MS + 1_000;

/** `next dev`, or the production server cluster: what a signal to this launcher is passed on to. */
let child: { kill(signal: NodeJS.Signals): unknown } | null = null;
let pendingSignal: NodeJS.Signals | null = null;
let pendingSince = 0;

// Ctrl-C reaches Next directly through the terminal; `kill` of this launcher only reaches us, so we
// forward it. Either way the database must outlive Next, which is why we stop it only after Next exits.
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
  process.on(signal, () => {
    if (!child) {
      // Still preparing the database: finish the step in hand and stop. A second signal means now,
      // unless it is a wrapper such as tsx re-sending the first one a few milliseconds later.
      if (pendingSignal && Date.now() - pendingSince > 1000) process.exit(exitCodeFor(signal));
      pendingSignal ??= signal;
      pendingSince ||= Date.now();
      return;
    }
    child.kill(signal);
    setTimeout(() => child?.kill("SIGKILL"), FORCE_KILL_AFTER_MS).unref();
  });
}

async function main(): Promise<number> {
  await assertPortFree(env.PORT);
  const database = await resolveDatabaseUrl();
  if (database.pointerFile) {
    // Started as root with the checkout in a home the `postgres` user cannot enter (placeCluster).
    console.log(
      `PostgreSQL runs as the postgres user, which cannot reach ${path.dirname(database.pointerFile)}: the database is in ${database.dataDir} (${displayPath(database.pointerFile)} records this).`,
    );
  }
  try {
    return await serve(database);
  } finally {
    await database.stop();
  }
}

async function serve(database: DatabaseHandle): Promise<number> {
  await migrateDatabase(database.url, { appUrl: database.appUrl });
  if (pendingSignal) return exitCodeFor(pendingSignal);

  const pool = createPool(database.url, 4);
  try {
    const seeded = await seedDemoDataIfEmpty(createDb(pool), { games: env.DEMO_GAMES });
    if (seeded) console.log(`Seeded the empty database with a demo catalog of ${seeded.games} games.`);
  } finally {
    await pool.end();
  }
  if (pendingSignal) return exitCodeFor(pendingSignal);

  // A fresh clone signs people in without configuration: the generated secret lives in .data, so
  // sessions survive restarts. Several instances must be given one AUTH_SECRET instead.
  const authSecret = env.AUTH_SECRET ?? readOrCreateAuthSecret(path.resolve(AUTH_SECRET_FILE));
  // The servers connect as the app's role; the owner's URL stays with this launcher.
  const { DATABASE_OWNER_URL: _owner, ...inherited } = process.env;
  const childEnv = { ...inherited, DATABASE_URL: database.appUrl, AUTH_SECRET: authSecret };
  if (!dev && !fs.existsSync(path.join(".next", "BUILD_ID"))) {
    console.log("No production build yet: running `next build` first.");
    const code = await runChild(["build"], childEnv);
    if (code !== 0 || pendingSignal) return code || exitCodeFor(pendingSignal ?? "SIGINT");
  }

  if (pendingSignal) return exitCodeFor(pendingSignal);
  printBanner(database);
  if (dev) return runChild(["dev", "-p", String(env.PORT)], childEnv);
  return runServerCluster(database, childEnv);
}

/** One server process per core behind PORT (WEB_CONCURRENCY); this launcher is their cluster primary. */
async function runServerCluster(database: DatabaseHandle, childEnv: NodeJS.ProcessEnv): Promise<number> {
  const servers = await startServerCluster({ databaseUrl: database.appUrl, fitPoolToDatabase: database.dataDir !== null, env: childEnv });
  console.log(`  Serving with ${servers.workers} server process${servers.workers === 1 ? "" : "es"} (WEB_CONCURRENCY).`);
  child = servers;
  if (pendingSignal) servers.kill(pendingSignal);
  return servers.exited;
}

function runChild(args: string[], childEnv: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, [nextBin, ...args], { env: childEnv, stdio: "inherit" });
    child = proc;
    proc.once("error", reject);
    proc.once("exit", (code, signal) => {
      child = null;
      resolve(code ?? exitCodeFor(signal ?? "SIGTERM"));
    });
  });
}

/** Fails before anything else starts when another server (typically a second `npm start`) has the port. */
function assertPortFree(port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once("error", (err: NodeJS.ErrnoException) =>
      reject(
        err.code === "EADDRINUSE"
          ? new StartError(
              `Port ${port} is already in use (is the store already running?); stop that server or start this one with PORT=<another port>.`,
            )
          : err,
      ),
    );
    probe.listen(port, () => probe.close(() => resolve()));
  });
}

function printBanner(database: DatabaseHandle): void {
  const { host, pathname } = new URL(database.url);
  const where = database.dataDir
    ? `embedded PostgreSQL on ${host}, data in ${displayPath(database.dataDir)}`
    : `DATABASE_URL (${host}${pathname})`;
  console.log(
    [
      "",
      `  GiftKey store ${dev ? "(development)" : ""}`.trimEnd(),
      `  URL:       http://localhost:${env.PORT}`,
      `  Database:  ${where}`,
      "  API token: npm run --silent token:create -- --name my-app",
      "",
    ].join(os.EOL),
  );
}

function displayPath(dir: string): string {
  const relative = path.relative(process.cwd(), dir);
  return relative && !relative.startsWith("..") && !path.isAbsolute(relative) ? relative : dir;
}

function exitCodeFor(signal: NodeJS.Signals): number {
  return 128 + (os.constants.signals[signal] ?? 15);
}

class StartError extends Error {}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    // Interrupted while preparing the database: the failure it caused is expected, not news.
    if (pendingSignal) process.exit(exitCodeFor(pendingSignal));
    const known = err instanceof EmbeddedPostgresError || err instanceof StartError;
    console.error(`Cannot start: ${known ? (err as Error).message : err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    process.exit(1);
  },
);
