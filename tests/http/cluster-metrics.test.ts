import { spawn, type ChildProcess } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startCluster, type Cluster } from "@/scripts/lib/cluster";
import { stopChild } from "@/scripts/lib/processes";
import { createTestDatabase, freeLoopbackPort, type TestDatabase } from "@/tests/support/db";
import { until } from "@/tests/support/paid-intent";

// `npm run serve` with two server processes behind one port: a scrape of /api/metrics lands on
// either of them and must report the whole cluster all the same.
const root = path.resolve(import.meta.dirname, "../..");
const METRICS_TOKEN = "metrics-token-for-the-cluster-test";
const HEALTH_OK = 'gk_http_requests_total{route="/api/health",method="GET",status="200"}';
let t: TestDatabase;
let serve: ChildProcess;
let port: number;
let logFile: string;

const serverEnv = () => ({
  DATABASE_URL: t.url,
  AUTH_SECRET: crypto.randomBytes(32).toString("base64url"),
  METRICS_TOKEN,
  // Request lines with the answering process's pid; health and metrics requests log at debug.
  LOG_LEVEL: "debug",
  WORKER_ENABLED: "0",
  RATE_LIMIT_PER_IP: "1000000",
});

beforeAll(async () => {
  t = await createTestDatabase();
  port = await freeLoopbackPort();
  logFile = path.join(root, ".data/test-logs/cluster-metrics.log");
  fs.mkdirSync(path.dirname(logFile), { recursive: true });
  const log = fs.openSync(logFile, "w");
  serve = spawn(process.execPath, ["--conditions=react-server", "--import", "tsx", "scripts/serve.ts", "-H", "127.0.0.1"], {
    cwd: root,
    env: { ...process.env, ...serverEnv(), PORT: String(port), WEB_CONCURRENCY: "2" },
    stdio: ["ignore", log, log],
  });
  // Ready once both server processes have answered (readiness probes: not the route counted below).
  const answered = new Set<number>();
  let probe = 0;
  await until(
    async () => {
      if (serve.exitCode !== null) throw new Error(`npm run serve exited with ${serve.exitCode}:\n${fs.readFileSync(logFile, "utf8")}`);
      const requestId = `ready-${probe++}`;
      const res = await get(port, "/api/ready", { "x-request-id": requestId }).catch(() => null);
      const pid = res?.status === 200 ? await until(async () => pidOf(requestId), 5_000, `${requestId} logged`) : undefined;
      if (pid) answered.add(pid);
      return answered.size === 2;
    },
    90_000,
    "both server processes of npm run serve answering",
  );
}, 120_000);

afterAll(async () => {
  if (serve) await stopChild(serve);
  await t?.close();
});

/** A GET on a connection of its own, so the cluster deals each request to the next server process. */
function get(at: number, urlPath: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: "127.0.0.1", port: at, path: urlPath, headers, agent: false }, (res) => {
      let body = "";
      res.on("data", (c: Buffer) => (body += c));
      res.on("end", () => resolve({ status: res.statusCode!, body }));
    });
    req.on("error", reject);
    req.setTimeout(20_000, () => req.destroy(new Error(`no answer to ${urlPath} within 20 s`)));
  });
}

const scrape = (at: number, requestId: string) =>
  get(at, "/api/metrics", { authorization: `Bearer ${METRICS_TOKEN}`, "x-request-id": requestId });

function value(text: string, series: string): number {
  const line = text.split("\n").find((l) => l.startsWith(`${series} `));
  return line === undefined ? Number.NaN : Number(line.slice(series.length + 1));
}

/** The pid of the server process that logged the request with this id. */
function pidOf(requestId: string): number | undefined {
  for (const line of fs.readFileSync(logFile, "utf8").split("\n")) {
    if (!line.includes(`"requestId":"${requestId}"`)) continue;
    return (JSON.parse(line) as { pid: number }).pid;
  }
  return undefined;
}

describe.sequential("GET /api/metrics in a cluster", () => {
  it("adds up every server process's counters, whichever process answers the scrape", async () => {
    const SENT = 30;
    for (let i = 0; i < SENT; i++) expect((await get(port, "/api/health", { "x-request-id": `health-${i}` })).status).toBe(200);

    const scrapes = [];
    for (let i = 0; i < 6; i++) {
      const res = await scrape(port, `scrape-${i}`);
      expect(res.status).toBe(200);
      scrapes.push({ health: value(res.body, HEALTH_OK), processes: value(res.body, "gk_server_processes") });
    }
    expect(scrapes).toEqual(Array(6).fill({ health: SENT, processes: 2 }));

    // Both processes served the requests and both answered scrapes: no single one held the total.
    const served = await until(
      async () => {
        const pids = Array.from({ length: SENT }, (_, i) => pidOf(`health-${i}`));
        return pids.every((p) => p !== undefined) && pids;
      },
      10_000,
      "every health request logged",
    );
    const scrapedBy = await until(
      async () => {
        const pids = Array.from({ length: 6 }, (_, i) => pidOf(`scrape-${i}`));
        return pids.every((p) => p !== undefined) && pids;
      },
      10_000,
      "every scrape logged",
    );
    expect(new Set(served).size).toBe(2);
    expect(new Set(scrapedBy).size).toBe(2);
    for (const pid of new Set(served)) expect(served.filter((p) => p === pid).length).toBeLessThan(SENT);
  });

  it("keeps the per-process metrics: summed where a sum means something, the start time left out", async () => {
    const res = await scrape(port, "scrape-process");
    expect(res.status).toBe(200);
    expect(value(res.body, "gk_process_resident_memory_bytes")).toBeGreaterThan(0);
    expect(value(res.body, "gk_process_cpu_seconds_total")).toBeGreaterThan(0);
    // One process's start time cannot stand for two; prom-client omits it from the aggregate.
    expect(res.body).not.toMatch(/^gk_process_start_time_seconds /m);
    expect(res.body).toMatch(/^gk_nodejs_version_info\{version="v\d+\.\d+\.\d+",major="\d+",minor="\d+",patch="\d+"\} 1$/m);
    // Read from the database once, not once per process.
    expect(value(res.body, 'gk_callback_outbox_pending{due="yes"}')).toBe(0);
  });
});

describe("GET /api/metrics under a primary that does not collect", () => {
  let other: Cluster | null = null;
  afterEach(async () => {
    other?.kill("SIGKILL");
    await other?.exited;
    other = null;
  });

  it("is 503 with the reason, never one process's numbers passed off as the cluster's", async () => {
    const at = await freeLoopbackPort();
    // The bare cluster primary: what another process manager's cluster mode looks like to a server process.
    other = startCluster({
      workers: 1,
      exec: path.join(root, "node_modules/next/dist/bin/next"),
      args: ["start", "-p", String(at), "-H", "127.0.0.1"],
      cwd: root,
      env: { ...serverEnv(), NODE_ENV: "production", PORT: String(at) },
      shutdownTimeoutMs: 5_000,
      log: () => {},
    });
    await other.ready;
    const started = Date.now();
    const res = await scrape(at, "scrape-unanswered");
    expect(res.status).toBe(503);
    expect(JSON.parse(res.body)).toEqual({
      code: 503,
      reason: "service_unavailable",
      message:
        "the cluster's metrics could not be collected: the cluster primary did not answer within 6 s (is this server run by npm start or npm run serve?); try again",
    });
    expect(Date.now() - started).toBeGreaterThanOrEqual(6_000);
  }, 60_000);
});
