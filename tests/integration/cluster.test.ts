import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startCluster, type Cluster, type ClusterOptions } from "@/scripts/lib/cluster";
import { serverNodeFlags } from "@/scripts/lib/server-cluster";
import { freeLoopbackPort } from "@/tests/support/db";
import { until } from "@/tests/support/paid-intent";

// The cluster primary with a tiny stand-in server, so each rule is quick to see: the shared port,
// restarts, a failed start, and the stop.
const SERVER = `
import http from "node:http";
import v8 from "node:v8";
if (process.env.FAIL_AT_START) process.exit(3);
const server = http.createServer((req, res) => {
  if (req.url === "/heap") return res.end(String(v8.getHeapStatistics().heap_size_limit));
  const ms = Number(new URL(req.url, "http://x").searchParams.get("ms") ?? 0);
  // Headers at once, the body after ms: a client knows its request reached a server process.
  res.writeHead(200);
  res.flushHeaders();
  setTimeout(() => res.end(String(process.pid)), ms);
});
server.listen(Number(process.env.PORT), "127.0.0.1");
process.on("SIGTERM", () => {
  if (process.env.IGNORE_SIGTERM) return;
  server.close(() => process.exit(143));
});
`;

let dir: string;
let script: string;
let running: Cluster | null = null;
let lines: string[] = [];

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "gk-cluster-"));
  script = path.join(dir, "server.mjs");
  fs.writeFileSync(script, SERVER);
});
afterEach(async () => {
  if (running) {
    running.kill("SIGKILL");
    await running.exited;
    running = null;
  }
  lines = [];
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

async function start(overrides: Partial<ClusterOptions> & { env?: Record<string, string> } = {}) {
  const port = await freeLoopbackPort();
  running = startCluster({
    workers: 2,
    exec: script,
    args: [],
    shutdownTimeoutMs: 10_000,
    log: (line) => lines.push(line),
    ...overrides,
    env: { PORT: String(port), ...overrides.env },
  });
  return { cluster: running, port };
}

/** The answering process's pid, on a connection of its own (the cluster deals out connections). */
function get(port: number, ms = 0, onHeaders?: () => void): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: "127.0.0.1", port, path: `/?ms=${ms}`, agent: false }, (res) => {
      onHeaders?.();
      let body = "";
      res.on("data", (c: Buffer) => (body += c));
      res.on("end", () => resolve(Number(body)));
    });
    req.on("error", reject);
    req.setTimeout(ms + 5_000, () => req.destroy(new Error(`no answer within ${ms + 5_000} ms`)));
  });
}

describe("the cluster primary", () => {
  it("runs the workers on one port and deals connections to all of them", async () => {
    const { cluster, port } = await start({ workers: 3 });
    await cluster.ready;
    const pids = [];
    for (let i = 0; i < 12; i++) pids.push(await get(port));
    expect(new Set(pids)).toEqual(new Set(cluster.pids()));
    expect(cluster.pids()).toHaveLength(3);
  });

  it("starts the workers with the server's Node flags: the heap limit holds in each of them", async () => {
    const { cluster, port } = await start({ execArgv: serverNodeFlags(96) });
    await cluster.ready;
    const limit = await new Promise<number>((resolve, reject) =>
      http
        .get({ host: "127.0.0.1", port, path: "/heap", agent: false }, (res) => {
          let body = "";
          res.on("data", (c: Buffer) => (body += c));
          res.on("end", () => resolve(Number(body)));
        })
        .on("error", reject),
    );
    // Old space 96 MiB plus the young generation; Node's default here is several GiB.
    expect(limit).toBeGreaterThan(96 * 2 ** 20);
    expect(limit).toBeLessThan(160 * 2 ** 20);
    expect(serverNodeFlags(0)).toEqual([]);
  });

  it("replaces a worker that dies, waiting longer each time it dies young", async () => {
    const { cluster, port } = await start();
    await cluster.ready;
    const original = cluster.pids();
    const replacement = async (dead: number[]) =>
      until(
        async () => {
          const now = cluster.pids();
          return now.length === 2 && now.find((pid) => !dead.includes(pid) && !original.includes(pid));
        },
        5_000,
        "a replacement worker",
      );

    process.kill(original[0]!, "SIGKILL");
    const second = await replacement([original[0]!]);
    expect(await get(port)).toBeGreaterThan(0);
    process.kill(second, "SIGKILL");
    await replacement([original[0]!, second]);
    expect(lines).toEqual([
      expect.stringMatching(/^Server process 1 \(pid \d+\) exited with signal SIGKILL; starting another in 0\.5 s\.$/),
      expect.stringMatching(/^Server process 1 \(pid \d+\) exited with signal SIGKILL; starting another in 1\.0 s\.$/),
    ]);
  });

  it("fails the start when a worker exits before the cluster was ready", async () => {
    const { cluster } = await start({ env: { FAIL_AT_START: "1" } });
    await expect(cluster.ready).rejects.toThrow("a server process exited with code 3 during start");
    expect(await cluster.exited).toBe(1);
    expect(lines[0]).toMatch(/^Server process \d \(pid \d+\) exited with code 3 before the server was ready; stopping\.$/);
  });

  it("on SIGTERM refuses new connections, finishes requests in flight and exits with 143", async () => {
    const { cluster, port } = await start();
    await cluster.ready;
    // Long enough that the refusal below is seen while it is still in flight, even on a busy machine;
    // SIGTERM only once a server process has the request (its headers arrived).
    let reached: () => void = () => {};
    const inServer = new Promise<void>((resolve) => (reached = resolve));
    const inFlight = get(port, 5_000, () => reached());
    await inServer;
    cluster.kill("SIGTERM");
    // A connection the primary accepted just as the last worker closed its server is never handed
    // on (Node's cluster holds it until the primary exits): a probe that gets no answer says nothing.
    const refused = () =>
      get(port).then(
        () => false,
        (err: NodeJS.ErrnoException) => err.code === "ECONNREFUSED",
      );
    await until(refused, 10_000, "new connections refused");
    // The request that was in a server process when SIGTERM came is answered in full.
    expect(await inFlight).toBeGreaterThan(0);
    expect(await cluster.exited).toBe(143);
    expect(cluster.pids()).toEqual([]);
    running = null;
  });

  it("kills workers still running the shutdown timeout after SIGTERM", async () => {
    const { cluster } = await start({ env: { IGNORE_SIGTERM: "1" }, shutdownTimeoutMs: 1_000 });
    await cluster.ready;
    const pids = cluster.pids();
    const stopAt = Date.now();
    cluster.kill("SIGTERM");
    expect(await cluster.exited).toBe(143);
    expect(Date.now() - stopAt).toBeGreaterThanOrEqual(1_000);
    expect(lines).toContain("2 server process(es) still busy 1 s after SIGTERM; killing them.");
    for (const pid of pids) expect(() => process.kill(pid, 0)).toThrow();
    running = null;
  });
});
