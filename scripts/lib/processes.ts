// Helpers for the scripts and test harnesses that start servers on this machine, and for the
// throwaway databases those servers use.
import { spawn, type ChildProcess } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import pg from "pg";
import { appRoleFor, ensureAppRole, roleOf } from "@/lib/db/roles";

const root = path.resolve(import.meta.dirname, "../..");

/** A TCP port on 127.0.0.1 that nothing listens on right now. */
export function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** SIGTERM, then SIGKILL if the child has not exited within `graceMs`. */
export function stopChild(child: ChildProcess, graceMs = 10_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = setTimeout(() => child.kill("SIGKILL"), graceMs);
    child.once("exit", () => {
      clearTimeout(kill);
      resolve();
    });
    child.kill("SIGTERM");
  });
}

export interface ServingWait {
  /** Polled every 200 ms until `answered` accepts its response. */
  url: string;
  /** The server: its exit ends the wait. */
  child: ChildProcess;
  logFile: string;
  /** An error quotes the log (the default, for test output) or only names it (a CLI's long log). */
  showLog?: "text" | "path";
  /** True when the server is ready; may throw to stop waiting. By default any 2xx answer. */
  answered?: (response: Response) => boolean;
  timeoutMs?: number;
}

/** Waits until a freshly spawned `next start` answers, failing with its log if it exits or never does. */
export async function waitUntilServing({
  url,
  child,
  logFile,
  showLog = "text",
  answered = (r) => r.ok,
  timeoutMs = 60_000,
}: ServingWait): Promise<void> {
  const log = () => (showLog === "text" ? `:\n${fs.readFileSync(logFile, "utf8")}` : `; see ${logFile}`);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`next start exited with ${child.exitCode}${log()}`);
    // Not listening yet is an error of fetch; it means another poll.
    const response = await fetch(url).catch(() => null);
    if (response && answered(response)) return;
    if (Date.now() > deadline) throw new Error(`next start did not answer within ${timeoutMs / 1000} s${log()}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

export interface NextProcess {
  baseUrl: string;
  child: ChildProcess;
  logFile: string;
  /** Resolves with how the process ended. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>;
}

/**
 * `next start` of the existing build on a free loopback port, with its own environment (added to
 * this process's, in production mode with a fresh AUTH_SECRET) and its log in
 * `.data/test-logs/<name>.log`. Resolves once the server answers; a server that does not is stopped.
 * The DATABASE_URL given is the owner's (the tests' own view of the data); the server runs as that
 * database's app role (appRoleUrl), as the app does everywhere, so every test through it proves
 * the app needs no more.
 */
export async function startNextProcess(name: string, env: Record<string, string>): Promise<NextProcess> {
  if (env.DATABASE_URL) env = { ...env, DATABASE_URL: await appRoleUrl(env.DATABASE_URL) };
  const port = await freeLoopbackPort();
  const logFile = path.join(root, `.data/test-logs/${name}.log`);
  fs.mkdirSync(path.dirname(logFile), { recursive: true });
  const log = fs.openSync(logFile, "w");
  const child = spawn(
    process.execPath,
    [path.join(root, "node_modules/next/dist/bin/next"), "start", "-p", String(port), "-H", "127.0.0.1"],
    {
      cwd: root,
      // A production server refuses sessions without AUTH_SECRET; these sessions live for this run only.
      env: {
        ...process.env,
        NODE_ENV: "production",
        AUTH_SECRET: crypto.randomBytes(32).toString("base64url"),
        ...env,
        PORT: String(port),
      },
      stdio: ["ignore", log, log],
    },
  );
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>((resolve) =>
    child.once("exit", (code, signal) => {
      fs.closeSync(log);
      resolve({ code, signal, at: Date.now() });
    }),
  );
  const baseUrl = `http://127.0.0.1:${port}`;
  try {
    await waitUntilServing({ url: `${baseUrl}/api/v1/openapi.json`, child, logFile });
  } catch (err) {
    await stopChild(child);
    throw err;
  }
  return { baseUrl, child, logFile, exited };
}

/** `serverUrl` with its database replaced by `database`, keeping credentials and query options. */
export function databaseUrl(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${encodeURIComponent(database)}`;
  return url.toString();
}

/** Runs `fn` with a client of `url` that is closed after it, whatever happens. */
export async function withClient<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** Creates `name` on the server `adminUrl` names, empty or as a copy of `template`, and returns its URL. */
export async function createDatabase(adminUrl: string, name: string, { template }: { template?: string } = {}): Promise<string> {
  await withClient(adminUrl, (c) =>
    c.query(`CREATE DATABASE ${c.escapeIdentifier(name)}${template ? ` TEMPLATE ${c.escapeIdentifier(template)}` : ""}`),
  );
  return databaseUrl(adminUrl, name);
}

/** Drops `name` if it exists, closing whatever connections it still has, and its app role. */
export async function dropDatabase(adminUrl: string, name: string): Promise<void> {
  await withClient(adminUrl, async (c) => {
    await c.query(`DROP DATABASE IF EXISTS ${c.escapeIdentifier(name)} WITH (FORCE)`);
    await dropAppRole(c, name);
  });
}

/**
 * The app role (lib/db/roles.ts) of the database `ownerUrl` names, made if missing, and the URL to
 * log in as it. Its password is derived from the owner's URL and the database, so a second server
 * on the same database sets the same one rather than locking the first one out.
 */
export async function appRoleUrl(ownerUrl: string): Promise<string> {
  const database = decodeURIComponent(new URL(ownerUrl).pathname.slice(1));
  const name = appRoleFor(database);
  if (roleOf(ownerUrl) === name) return ownerUrl;
  const password = crypto.createHash("sha256").update(`${ownerUrl}\n${database}`).digest("base64url");
  return ensureAppRole(ownerUrl, { name, password });
}

/** The app role of database `name`, once the database is gone: its privileges went with it, so it owns and holds nothing. */
export async function dropAppRole(c: pg.Client, name: string): Promise<void> {
  await c.query(`DROP ROLE IF EXISTS ${c.escapeIdentifier(appRoleFor(name))}`);
}
