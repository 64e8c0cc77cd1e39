import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb, createPool } from "@/lib/db/client";
import { passwordFileFor, startEmbeddedPostgres, stopEmbeddedPostgres } from "@/lib/db/embedded";
import { createApiToken, ensureUser } from "@/lib/services/tokens";
import { freeLoopbackPort } from "@/tests/support/db";
import { until } from "@/tests/support/paid-intent";

// `npm start` as a user runs it, with no DATABASE_URL: the launcher starts its own PostgreSQL and is
// the primary of two server processes sharing one port. What a crash of one of them and a SIGTERM
// to the whole thing do, with a request in flight.
const root = path.resolve(import.meta.dirname, "../..");
let dir: string;
let dataDir: string;
let pgPort: number;
let appPort: number;
let launcher: ChildProcess;
let launcherExit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
let logFile: string;
let dbUrl: string;
let token: string;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "gk-graceful-"));
  // PostgreSQL runs as the `postgres` user when the tests run as root; it must reach the directory.
  fs.chmodSync(dir, 0o755);
  dataDir = path.join(dir, "pg");
  [pgPort, appPort] = [await freeLoopbackPort(), await freeLoopbackPort()];
  logFile = path.join(root, ".data/test-logs/graceful-launcher.log");
  fs.mkdirSync(path.dirname(logFile), { recursive: true });
  const log = fs.openSync(logFile, "w");
  launcher = spawn(process.execPath, ["--conditions=react-server", "--import", "tsx", "scripts/start.ts"], {
    cwd: root,
    env: {
      ...process.env,
      DATABASE_URL: "",
      EMBEDDED_PG_DIR: dataDir,
      EMBEDDED_PG_PORT: String(pgPort),
      PORT: String(appPort),
      WEB_CONCURRENCY: "2",
      DEMO_GAMES: "10",
      // Readiness polling and the load below are well past a per-minute allowance.
      RATE_LIMIT_PER_TOKEN: "1000000",
      RATE_LIMIT_PER_IP: "1000000",
    },
    stdio: ["ignore", log, log],
  });
  launcherExit = new Promise((resolve) => launcher.once("exit", (code, signal) => resolve({ code, signal })));
  await until(
    async () => {
      if (launcher.exitCode !== null) throw new Error(`npm start exited with ${launcher.exitCode}:\n${fs.readFileSync(logFile, "utf8")}`);
      return (await get("/api/ready").catch(() => 0)) === 200;
    },
    180_000,
    "npm start serving",
  );
  dbUrl = `postgres://postgres:${encodeURIComponent(fs.readFileSync(passwordFileFor(dataDir), "utf8").trim())}@127.0.0.1:${pgPort}/giftkey`;
  const pool = createPool(dbUrl, 1);
  try {
    const db = createDb(pool);
    token = (
      await createApiToken(db, {
        userId: await ensureUser(db, "graceful@example.com"),
        name: "graceful",
        scopes: ["gear:create", "catalog:read"],
      })
    ).token;
  } finally {
    await pool.end();
  }
}, 240_000);

afterAll(async () => {
  if (launcher && launcher.exitCode === null && launcher.signalCode === null) {
    launcher.kill("SIGKILL");
    await launcherExit;
  }
  // Whatever a failed test left running.
  if (dataDir && postmasterPid()) await stopEmbeddedPostgres(dataDir).catch(() => {});
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe.sequential("npm start: server processes behind one port", () => {
  it("serves from both processes and replaces one that dies, answering throughout", async () => {
    const workers = serverProcesses();
    expect(workers).toHaveLength(2);
    expect(fs.readFileSync(logFile, "utf8")).toContain("Serving with 2 server processes (WEB_CONCURRENCY).");

    // Connections are handed to the processes in turn: both do a share of the work.
    const before = workers.map(cpuTicks);
    await inParallel(8, 25, () => get("/api/v1/gifts/catalog?limit=20", { authorization: `Bearer ${token}` }));
    const spent = workers.map((pid, i) => cpuTicks(pid) - before[i]!);
    const total = spent[0]! + spent[1]!;
    for (const s of spent) expect(s / total).toBeGreaterThan(0.2);

    process.kill(workers[0]!, "SIGKILL");
    // Connections the cluster handed to the process before it died die with it; what counts is
    // that new ones are served while it is being replaced.
    await until(async () => !alive(workers[0]!), 5_000, "the killed process gone");
    await new Promise((r) => setTimeout(r, 100));
    const statuses = await inParallel(4, 15, () => get("/api/health"));
    expect(statuses).toEqual(Array(60).fill(200));
    const replaced = await until(
      async () => {
        const now = serverProcesses();
        return now.length === 2 && !now.includes(workers[0]!) && now;
      },
      15_000,
      "a replacement server process",
    );
    expect(replaced).toContain(workers[1]);
    expect(fs.readFileSync(logFile, "utf8")).toMatch(
      new RegExp(`Server process \\d \\(pid ${workers[0]}\\) exited with signal SIGKILL; starting another in 0\\.5 s\\.`),
    );
    await until(async () => (await get("/api/ready")) === 200, 15_000, "ready again");
  });

  it("on SIGTERM refuses new connections, finishes the request in flight, then stops every process and its PostgreSQL", async () => {
    // The request in flight: a reservation waiting for the item's row lock, held here.
    const lock = new pg.Client({ connectionString: dbUrl });
    // If the test fails, PostgreSQL stops under this connection; that is not a second failure.
    lock.on("error", () => {});
    await lock.connect();
    await lock.query("BEGIN");
    await lock.query("SELECT id FROM gear_items WHERE platform_app_id = 730 AND item = 'sticker-capsule' FOR UPDATE");
    let answered = false;
    let failed: unknown = null;
    const inFlight = post("/api/v1/gear", {
      account: "76561198000000001",
      platform: "730",
      item: "sticker-capsule",
      email: "gamer@example.com",
    }).then(
      (res) => {
        answered = true;
        return res;
      },
      (err: unknown) => {
        failed = err;
        throw err;
      },
    );
    // Watched from another connection: inside the lock's transaction pg_stat_activity would stay
    // the snapshot taken at its first read.
    const watch = new pg.Client({ connectionString: dbUrl });
    watch.on("error", () => {});
    await watch.connect();
    await until(
      async () => {
        if (failed) throw failed;
        const { rows } = await watch.query<{ n: number }>(
          "SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = 'giftkey'",
        );
        return rows[0]!.n === 1;
      },
      15_000,
      "the reservation waiting for the lock",
    );
    await watch.end();

    const tree = descendants(launcher.pid!);
    const postmaster = postmasterPid()!;
    expect(serverProcesses()).toHaveLength(2);
    launcher.kill("SIGTERM");

    await until(async () => !(await accepts(appPort)), 10_000, "the port refusing new connections");
    await new Promise((r) => setTimeout(r, 500));
    expect(answered).toBe(false);
    expect(launcher.exitCode).toBeNull();
    expect(alive(postmaster)).toBe(true);

    await lock.query("COMMIT");
    await lock.end();
    const res = await inFlight;
    expect(res.status).toBe(201);

    expect(await launcherExit).toMatchObject({ code: 143, signal: null });
    await until(
      async () => tree.every((pid) => !alive(pid)) && !alive(postmaster),
      10_000,
      "every process of the tree and PostgreSQL gone",
    );
    expect(postmasterPid()).toBeNull();
    expect(fs.readFileSync(logFile, "utf8")).not.toMatch(/still busy|killing them/);

    // The reservation answered during shutdown is durable: it is there after a fresh start.
    const db = await startEmbeddedPostgres({ dataDir, port: pgPort, database: "giftkey" });
    try {
      const client = new pg.Client({ connectionString: db.url });
      await client.connect();
      const { rows } = await client.query("SELECT status FROM intents WHERE id = $1", [res.body.intentId]);
      await client.end();
      expect(rows).toEqual([{ status: "requires_payment" }]);
    } finally {
      await db.stop();
    }
  });
});

/** The launcher's server processes (Next renames itself next-server). */
function serverProcesses(): number[] {
  return children(launcher.pid!).filter((pid) => readProc(`/proc/${pid}/comm`).startsWith("next-server"));
}

function children(pid: number): number[] {
  return fs
    .readdirSync(`/proc/${pid}/task`)
    .flatMap((tid) => readProc(`/proc/${pid}/task/${tid}/children`).split(" "))
    .filter((s) => s.trim())
    .map(Number);
}

function descendants(pid: number): number[] {
  return [pid, ...children(pid).flatMap(descendants)];
}

/** User plus system CPU time of a process, in clock ticks. */
function cpuTicks(pid: number): number {
  const fields = readProc(`/proc/${pid}/stat`)
    .replace(/^.*\) /, "")
    .split(" ");
  return Number(fields[11]) + Number(fields[12]);
}

function readProc(file: string): string {
  try {
    return fs.readFileSync(file, "utf8");
  } catch {
    return "";
  }
}

function alive(pid: number): boolean {
  // A zombie still has a /proc entry; its state is Z.
  return /^State:\s+[^Z]/m.test(readProc(`/proc/${pid}/status`));
}

function postmasterPid(): number | null {
  const file = path.join(dataDir, "postmaster.pid");
  return fs.existsSync(file) ? Number(fs.readFileSync(file, "utf8").split("\n")[0]) : null;
}

/** A GET on a connection of its own: a connection kept alive to a process that died would fail the request, not the server. */
function get(urlPath: string, headers: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: "127.0.0.1", port: appPort, path: urlPath, headers, agent: false }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode ?? 0));
    });
    req.on("error", reject);
  });
}

/** A POST on a connection of its own, answered with its status and JSON body. */
function post(urlPath: string, body: unknown): Promise<{ status: number; body: { intentId: string } }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: "127.0.0.1",
        port: appPort,
        path: urlPath,
        method: "POST",
        agent: false,
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      },
      (res) => {
        let text = "";
        res.on("data", (c: Buffer) => (text += c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
      },
    );
    req.on("error", reject);
    req.end(JSON.stringify(body));
  });
}

async function inParallel<T>(clients: number, each: number, request: () => Promise<T>): Promise<T[]> {
  const results = await Promise.all(
    Array.from({ length: clients }, async () => {
      const out: T[] = [];
      for (let i = 0; i < each; i++) out.push(await request());
      return out;
    }),
  );
  return results.flat();
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}
