// npm run bench:reports [-- --intents 1000000 --games 100000 --days 180 --requests 20 --warmup 3 --fresh --explain --no-server --writes --no-reports]:
// the back office's order list and campaign report over a seeded store (scripts/bench/reports.ts), alone.
// PostgreSQL as scripts/bench.ts starts it (DATABASE_URL, or the embedded one in .data/bench-pg), in the
// same database as its reports phase (gk_bench_<games>_reports, a copy of that catalog's database),
// reused while its seeds still match.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { createPool } from "@/lib/db/client";
import { explainReports } from "./bench/reports-explain";
import {
  measureInsertCost,
  measureReports,
  measureTriggerTime,
  measureVerifyCost,
  printReports,
  printWriteCost,
  seedReports,
  type ReportRow,
  type WriteCost,
} from "./bench/reports";
import { intArg, postgresServer, stopAll, stopOnSignals, stops } from "./bench/lifecycle";
import { startNextProcess, stopChild } from "./lib/processes";
import { reportsDatabase } from "./bench/databases";

const nextBin = createRequire(import.meta.url).resolve("next/dist/bin/next");

const { values: args } = parseArgs({
  options: {
    intents: { type: "string" },
    games: { type: "string" },
    days: { type: "string" },
    requests: { type: "string" },
    warmup: { type: "string" },
    fresh: { type: "boolean", default: false },
    explain: { type: "boolean", default: false },
    "no-server": { type: "boolean", default: false },
    writes: { type: "boolean", default: false },
    "no-reports": { type: "boolean", default: false },
  },
});
const options = {
  intents: intArg("intents", args.intents, 1_000_000, 1000, 20_000_000),
  games: intArg("games", args.games, 100_000, 10, 1_000_000),
  days: intArg("days", args.days, 180, 14, 3650),
  requests: intArg("requests", args.requests, 20, 1, 1000),
  warmup: intArg("warmup", args.warmup, 3, 0, 100),
};

stopOnSignals("what this benchmark started");

async function main(): Promise<void> {
  const startedAt = new Date();
  const loadBefore = os.loadavg();
  console.log(
    `Reports benchmark: ${options.intents} intents over ${options.days} days, ${options.games} games; ` +
      `${os.availableParallelism()} CPUs, load average ${loadBefore.map((l) => l.toFixed(1)).join(" ")}.`,
  );
  const adminUrl = await postgresServer();
  const url = await reportsDatabase(adminUrl, { games: options.games, fresh: args.fresh });
  const pool = createPool(url, 4);
  stops.push(() => pool.end());
  const seed = await seedReports(pool, { intents: options.intents, days: options.days, fresh: args.fresh });
  if (args.explain) await explainReports(pool, seed.lastDay);
  if (args["no-server"]) return;

  if (!fs.existsSync(".next/BUILD_ID")) {
    console.log("no production build yet: running next build...");
    if (spawnSync(process.execPath, [nextBin, "build"], { stdio: "inherit" }).status !== 0) throw new Error("next build failed");
  }
  // No worker: it would advance the seeded deliveries and sweep orders while the reports are timed. The
  // floor route and a per-token limit the load cannot reach, for --writes, as scripts/bench.ts has them.
  const server = await startNextProcess("bench-reports", {
    DATABASE_URL: url,
    WORKER_ENABLED: "0",
    BENCH_FLOOR: "1",
    RATE_LIMIT_PER_TOKEN: "10000000",
  });
  stops.push(() => stopChild(server.child));
  console.log(`Next on ${server.baseUrl}, log ${server.logFile}.`);

  const rows = args["no-reports"]
    ? []
    : await measureReports({ origin: server.baseUrl, pool, seed, requests: options.requests, warmup: options.warmup });
  let writes: WriteCost | null = null;
  if (args.writes) {
    console.log("Write cost of the campaign rollup...");
    writes = {
      inserts: await measureInsertCost(pool),
      trigger: await measureTriggerTime(pool),
      http: await measureVerifyCost(pool, server.baseUrl),
    };
  }
  const loadAfter = os.loadavg();
  if (rows.length) printReports(rows);
  if (writes) printWriteCost(writes);
  console.log(`Load average ${loadBefore[0]!.toFixed(1)} before, ${loadAfter[0]!.toFixed(1)} after.`);
  writeResults(startedAt, { seed, loadBefore, loadAfter, rows, writes });
}

function writeResults(
  startedAt: Date,
  result: { seed: unknown; loadBefore: number[]; loadAfter: number[]; rows: ReportRow[]; writes: WriteCost | null },
): void {
  const file = path.join("bench-results", `reports-${startedAt.toISOString().replace(/[:.]/g, "-")}.json`);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const machine = { cpus: os.availableParallelism(), memoryBytes: os.totalmem(), node: process.version };
  fs.writeFileSync(file, `${JSON.stringify({ startedAt: startedAt.toISOString(), options, machine, ...result }, null, 2)}\n`);
  console.log(`Results: ${file}`);
}

main()
  .catch((err: unknown) => {
    console.error(`bench:reports failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    process.exitCode = 1;
  })
  .finally(() => stopAll());
