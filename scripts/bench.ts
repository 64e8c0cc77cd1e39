// npm run bench [-- --only catalog,writes,growth,reports,pages,soak --games 100000 --sizes 10000,100000,1000000
//   --duration 10 --pairs 3 --connections 32 --minutes 10 --quick --fresh]: every figure of issue 15 with its target and
// met/MISSED: the production server against a seeded database, next to node:http (the machine's limit) and a bare
// route (the framework's floor) measured in the same run; the catalog's growth from 10k to 1M games; the back
// office's reports over 1M intents; the shopper pages' weight and Lighthouse scores; memory and a soak.
// --cluster [--workers N --rounds R]: one `next start` process against the production start's N processes on one port.
import { fork, spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import type pg from "pg";
import { createDb, createPool } from "@/lib/db/client";
import { env } from "@/lib/env";
import { upsertGearItems } from "@/lib/services/catalog-write";
import { measurePages, PAGE_TARGETS, printPages } from "./bench/pages";
import { assessReport, DEFAULT_REPORT_INTENTS, measureReports, printReports, REPORT_TARGET_P50_MS, seedReports } from "./bench/reports";
import { soak, slope, type SoakRequest } from "./bench/soak";
import { measure, sampleTreeRss, treeCpuSeconds, type LoadSpec, type Measurement } from "./bench/load";
import { intArg, postgresServer, stopAll, stopOnSignals, stops } from "./bench/lifecycle";
import { freeLoopbackPort, stopChild, waitUntilServing } from "./lib/processes";
import { GEAR_ITEMS, GEAR_PLATFORM, prepareDatabase, reportsDatabase } from "./bench/databases";
import { serverNodeFlags } from "./lib/server-cluster";
import {
  assess,
  durable,
  mib,
  ms,
  printClusterReport,
  printDurability,
  medianPair,
  pairRatiosText,
  printGrowthTable,
  printLoadTable,
  printSummary,
  ratio,
  TARGETS,
  type AssessedRow,
  type ClusterRow,
  type Durability,
  type GrowthCell,
  type Kind,
  type Pair,
  type Verdict,
} from "./bench/report";

const LOG_DIR = ".data/bench-logs";
const WARMUP_SECONDS = 1;
const PAGE_LIMIT = 20;
/** A title word of the generated catalog ("Тихая гавань", "Silent Harbor"): a few hundred games at 100k. */
const SEARCH_WORD = "гавань";
/** A misspelt title: found only through the trigram index. */
const FUZZY_WORD = "cyberpnk";
const GIFT_BODY = JSON.stringify({
  item: 620,
  target: { inviteUrl: "https://s.team/p/fhgc-rdqr/NQVGTQPG", region: "RU" },
  email: "bench@example.com",
  fee: "excluded",
});
const GEAR_ACCOUNT = "76561198000000001";

const nextBin = createRequire(import.meta.url).resolve("next/dist/bin/next");

const { values: args } = parseArgs({
  options: {
    games: { type: "string" },
    duration: { type: "string" },
    connections: { type: "string" },
    quick: { type: "boolean", default: false },
    fresh: { type: "boolean", default: false },
    soak: { type: "boolean", default: false },
    cluster: { type: "boolean", default: false },
    workers: { type: "string" },
    rounds: { type: "string" },
    pairs: { type: "string" },
    minutes: { type: "string" },
    rate: { type: "string" },
    only: { type: "string" },
    sizes: { type: "string" },
    "prepare-only": { type: "boolean", default: false },
  },
});
const PHASES = ["catalog", "writes", "growth", "reports", "pages", "soak"] as const;
type Phase = (typeof PHASES)[number];
const options = {
  games: intArg("games", args.games, args.quick ? 3000 : 100_000, 10, 1_000_000),
  duration: intArg("duration", args.duration, args.quick ? 3 : 10, 1, 600),
  connections: intArg("connections", args.connections, 32, 1, 1000),
  fresh: args.fresh ?? false,
  soak: args.soak ?? false,
  cluster: args.cluster ?? false,
  workers: intArg("workers", args.workers, os.availableParallelism(), 1, 256),
  rounds: intArg("rounds", args.rounds, args.quick ? 3 : 5, 1, 100),
  pairs: intArg("pairs", args.pairs, args.quick ? 1 : 3, 1, 25),
  soakMinutes: intArg("minutes", args.minutes, args.quick ? 1 : 10, 1, 240),
  soakRate: intArg("rate", args.rate, 200, 1, 100_000),
  phases: phaseList(args.only),
  sizes: sizeList(args.sizes, args.quick ? [1000, 3000, 10_000] : [10_000, 100_000, 1_000_000]),
  pageRuns: args.quick ? 1 : 5,
  reportIntents: args.quick ? 20_000 : DEFAULT_REPORT_INTENTS,
};

stopOnSignals("the servers this benchmark started");

interface Scenario {
  name: string;
  kind: Kind;
  path: string;
  body?: string | (() => string);
  bytes: number;
}

async function main(): Promise<void> {
  if (args["prepare-only"]) {
    const db = await prepareDatabase(await postgresServer(), options);
    return void console.log(`Prepared ${db.url.replace(/\/\/[^@]*@/, "//")}.`);
  }
  if (options.soak) return void (await soakPhase(await postgresServer()));
  if (options.cluster) return clusterMode();
  const startedAt = new Date();
  const load = () => os.loadavg()[0]!.toFixed(1);
  const has = (phase: Phase) => options.phases.includes(phase);
  console.log(
    `Benchmark: ${options.phases.join(", ")}; ${options.games} games, ${options.duration} s per run, ${options.connections} connections, ` +
      `${os.availableParallelism()} CPUs, load average ${load()} at the start.`,
  );

  const adminUrl = await postgresServer();
  buildIfNeeded();
  const verdicts: Verdict[] = [];
  const rows: AssessedRow[] = [];
  const peaks: { server: string; bytes: number }[] = [];
  const results: Record<string, unknown> = {};

  if (has("catalog") || has("writes")) {
    const db = await prepareDatabase(adminUrl, options);
    await settle(adminUrl);
    const pool = createPool(db.url, 2);
    try {
      const plainOrigin = await startPlainServer();
      const next = await startNext(db.url, "cached", {});
      // node:http, for scale: measured once per body size; every row's ratios are against its own bytes.
      const plainRuns = new Map<number, Measurement>();
      const plainBaseline = async (bytes: number) => {
        let m = plainRuns.get(bytes);
        if (!m)
          plainRuns.set(bytes, (m = await run(pool, { origin: plainOrigin, path: `/?bytes=${bytes}`, connections: options.connections })));
        return m;
      };
      const headers = { authorization: `Bearer ${db.token}` };
      const postHeaders = { ...headers, "content-type": "application/json" };
      // The floor and the scenario in pairs, one right after the other, so that a slow spell of the
      // machine touches both runs of a pair; the row is the pair with the median ratio.
      const measureRow = async (s: Scenario, spec: Partial<LoadSpec> = {}) => {
        const plain = await plainBaseline(s.bytes);
        const pairs: Pair[] = [];
        for (let i = 0; i < options.pairs; i++) {
          const warmup = i === 0 ? WARMUP_SECONDS : 0;
          const floorPath = `/api/bench/floor?bytes=${s.bytes}`;
          const floor = await run(pool, { origin: next.origin, path: floorPath, connections: options.connections }, warmup);
          const result = await run(pool, { origin: next.origin, path: s.path, connections: options.connections, headers, ...spec }, warmup);
          pairs.push({ floor, result });
        }
        const row = assess({
          phase: "cached",
          scenario: s.name,
          kind: s.kind,
          connections: options.connections,
          bytes: s.bytes,
          plain,
          ...medianPair(pairs),
        });
        rows.push(row);
        return row;
      };

      if (has("catalog")) {
        console.log(`\n== 1. The catalog as served (cache on, rate limits on), ${options.connections} connections; load average ${load()}`);
        const catalog = await planCatalog(next.origin, headers);
        await warmUp(pool, next.origin, catalog, headers);
        for (const s of catalog) {
          const row = await measureRow(s);
          verdicts.push({
            item: "1 catalog as served",
            figure: `${s.name}: rps, p99 x floor`,
            value: `${ratio(row.vsFloor)} [${pairRatiosText(row.pairRatios)}], ${ratio(row.p99VsFloor)}`,
            target: `>= ${TARGETS.cachedThroughputVsFloor}x, <= ${TARGETS.cachedP99VsFloor}x`,
            met: row.met,
          });
        }
      }

      if (has("writes")) {
        console.log(
          `\n== 4. Writes (verify, gear) at ${options.connections} connections, every 201 a durable commit; load average ${load()}`,
        );
        const created = { gift: [] as string[], gear: [] as string[] };
        let item = 0;
        const gearBody = () =>
          JSON.stringify({
            account: GEAR_ACCOUNT,
            platform: GEAR_PLATFORM,
            item: GEAR_ITEMS[item++ % GEAR_ITEMS.length],
            email: "bench@example.com",
          });
        const writes = [
          { name: "POST /gifts/verify", kind: "gift", path: "/api/v1/gifts/verify", body: GIFT_BODY },
          { name: "POST /gear", kind: "gear", path: "/api/v1/gear", body: gearBody },
        ] as const;
        for (const w of writes) {
          const first = await probe(next.origin, w.path, postHeaders, typeof w.body === "function" ? w.body() : w.body);
          created[w.kind].push(intentId(first.text));
          const row = await measureRow(
            { name: w.name, kind: w.kind, path: w.path, bytes: first.bytes },
            { method: "POST", headers: postHeaders, body: w.body, onOk: (text) => created[w.kind].push(intentId(text)) },
          );
          verdicts.push({
            item: "4 writes",
            figure: `${w.name}: rps x floor`,
            value: `${ratio(row.vsFloor)} [${pairRatiosText(row.pairRatios)}]`,
            target: `>= ${TARGETS.writesVsFloor}x`,
            met: row.met,
          });
        }
        const durability = await checkDurability(pool, db.tokenId, created);
        printDurability(durability);
        for (const d of durability)
          verdicts.push({
            item: "4 writes",
            figure: `${d.kind}: 201s committed`,
            value: `${d.found} of ${d.created}`,
            target: "all",
            met: durable(d),
          });
        const oversell = await oversellCheck(pool, next.origin, postHeaders);
        verdicts.push({
          item: "4 writes",
          figure: `gear oversold (${oversell.stock} units, ${oversell.requests} racing requests)`,
          value: `${oversell.created} × 201, ${oversell.refused} × 409, ${oversell.held} held`,
          target: "0 oversold",
          met: oversell.created === oversell.stock && oversell.held === oversell.stock,
        });
        results.durability = durability;
        results.oversell = oversell;
      }
      peaks.push({ server: "cached (catalog and writes)", bytes: await next.stop() });
    } finally {
      await pool.end();
    }
    printLoadTable(rows);
  }

  if (has("growth")) {
    console.log(`\n== 2, 3. The catalog straight from PostgreSQL (cache off), one connection, at ${options.sizes.join(", ")} games`);
    const cells: GrowthCell[] = [];
    for (const games of options.sizes) {
      const db = await prepareDatabase(adminUrl, { ...options, games });
      if (games === Math.max(...options.sizes)) {
        const seconds = db.seedSeconds;
        verdicts.push({
          item: "3 growth",
          figure: `seeding ${games.toLocaleString("en")} games`,
          value: seconds === null ? "-" : `${(seconds / 60).toFixed(1)} min`,
          target: `<= ${TARGETS.seedMillionSeconds / 60} min`,
          met: seconds === null ? null : seconds <= TARGETS.seedMillionSeconds,
        });
      }
      const pool = createPool(db.url, 2);
      try {
        await settle(adminUrl);
        const next = await startNext(db.url, `uncached-${games}`, { CATALOG_CACHE_TTL_MS: "0" });
        const headers = { authorization: `Bearer ${db.token}` };
        const catalog = await planCatalog(next.origin, headers);
        await warmUp(pool, next.origin, catalog, headers, 1);
        console.log(`  ${games} games, load average ${load()}:`);
        for (const s of catalog) {
          const result = await run(pool, { origin: next.origin, path: s.path, connections: 1, headers });
          cells.push({ games, scenario: s.name, result });
          if (games === options.games)
            verdicts.push({
              item: "2 cache off",
              figure: `${s.name} at ${games.toLocaleString("en")}: p50, p99`,
              value: `${ms(result.p50)}, ${ms(result.p99)} ms`,
              target: `< ${TARGETS.uncachedP50Ms}, < ${TARGETS.uncachedP99Ms} ms`,
              met: result.p50 < TARGETS.uncachedP50Ms && result.p99 < TARGETS.uncachedP99Ms && result.non2xx + result.errors === 0,
            });
        }
        peaks.push({ server: `uncached, ${games} games`, bytes: await next.stop() });
      } finally {
        await pool.end();
      }
    }
    for (const g of printGrowthTable(cells))
      verdicts.push({
        item: "3 growth",
        figure: `${g.scenario}: p50 ${options.sizes.at(-1)} / ${options.sizes.at(-2)}`,
        value: ratio(g.ratio),
        target: `<= ${TARGETS.growthP50Ratio}x`,
        met: g.met,
      });
    results.growth = cells;
  }

  if (has("reports")) {
    console.log(
      `\n== 6. Reports: the order list and campaign report over ${options.reportIntents.toLocaleString("en")} intents; load average ${load()}`,
    );
    const url = await reportsDatabase(adminUrl, options);
    const pool = createPool(url, 4);
    try {
      const seed = await seedReports(pool, { intents: options.reportIntents });
      await settle(adminUrl);
      // No worker: it would advance the seeded deliveries and sweep orders while the reports are timed.
      const next = await startNext(url, "reports", { WORKER_ENABLED: "0" });
      try {
        const rows = await measureReports({ origin: next.origin, pool, seed });
        printReports(rows);
        for (const r of rows.filter((row) => row.layer === "page").map(assessReport))
          verdicts.push({
            item: "6 reports",
            figure: `${r.report} ${r.scenario} (page): p50`,
            value: `${ms(r.p50)} ms`,
            target: `< ${REPORT_TARGET_P50_MS} ms`,
            met: r.met,
          });
        results.reports = { seed, rows };
      } finally {
        peaks.push({ server: "reports", bytes: await next.stop() });
      }
    } finally {
      await pool.end();
    }
  }

  if (has("pages")) {
    console.log(
      `\n== 7. Pages: Lighthouse (mobile) over every page a shopper sees, and the catalog's first-load JavaScript; load average ${load()}`,
    );
    const db = await prepareDatabase(adminUrl, options);
    await settle(adminUrl);
    const next = await startNext(db.url, "pages", {});
    try {
      const rows = await measurePages({
        baseUrl: next.origin,
        databaseUrl: db.url,
        runs: options.pageRuns,
        formFactors: ["mobile"],
        onRun: (page, _form, run, performance) => console.log(`  ${page} run ${run}: performance ${performance}`),
      });
      printPages(rows);
      for (const r of rows) {
        verdicts.push({
          item: "7 pages",
          figure: `${r.page} (mobile): performance, accessibility`,
          value: `${r.performance} [${r.spread.join(" ")}], ${r.accessibility}`,
          target: `>= ${PAGE_TARGETS.performance}, ${PAGE_TARGETS.accessibility}`,
          met: r.performance >= PAGE_TARGETS.performance && r.accessibility >= PAGE_TARGETS.accessibility,
        });
      }
      const catalog = rows.find((r) => r.page === "catalog");
      if (catalog)
        verdicts.push({
          item: "7 pages",
          figure: "catalog first-load JS, compressed",
          value: `${(catalog.firstLoadJs.compressedBytes / 1024).toFixed(1)} KiB`,
          target: `<= ${PAGE_TARGETS.catalogFirstLoadJsBytes / 1024} KiB`,
          met: catalog.firstLoadJs.compressedBytes <= PAGE_TARGETS.catalogFirstLoadJsBytes,
        });
      results.pages = rows;
    } finally {
      peaks.push({ server: "pages", bytes: await next.stop() });
    }
  }

  if (has("soak")) {
    const soak = await soakPhase(adminUrl);
    peaks.push({ server: "soak", bytes: soak.peakRss });
    verdicts.push(...soak.verdicts);
    results.soak = soak;
  }

  for (const p of peaks)
    verdicts.push({
      item: "8 memory",
      figure: `peak RSS, ${p.server}`,
      value: mib(p.bytes),
      target: `<= ${TARGETS.peakRssMiB} MiB`,
      met: p.bytes <= TARGETS.peakRssMiB * 2 ** 20,
    });

  const seconds = (Date.now() - startedAt.getTime()) / 1000;
  console.log(`\n== Summary (load average ${load()} at the end; whole run ${(seconds / 60).toFixed(1)} min)`);
  printSummary(verdicts);
  const file = path.join("bench-results", `${startedAt.toISOString().replace(/[:.]/g, "-")}.json`);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const result = {
    startedAt: startedAt.toISOString(),
    seconds,
    options,
    machine: { cpus: os.availableParallelism(), memoryBytes: os.totalmem(), node: process.version, loadAverage: os.loadavg() },
    server: {
      buildId: fs.readFileSync(".next/BUILD_ID", "utf8").trim(),
      dbPoolSize: env.DB_POOL_SIZE,
      dbBatchesInFlight: env.DB_BATCHES_IN_FLIGHT,
    },
    peaks,
    rows,
    verdicts,
    ...results,
  };
  fs.writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);
  console.log(`Results: ${file}`);
}

/**
 * Zero oversold: an item with a few units, raced by every connection at once; exactly its stock of
 * requests may get 201 and exactly that many units may be held afterwards.
 */
async function oversellCheck(pool: pg.Pool, origin: string, headers: Record<string, string>) {
  const stock = 50;
  const item = `bench-oversell-${Date.now().toString(36)}`;
  const db = createDb(pool);
  await upsertGearItems(db, [{ platformAppId: GEAR_PLATFORM, item, title: `Bench oversell ${item}`, price: 49_900, stock }]);
  const body = JSON.stringify({ account: GEAR_ACCOUNT, platform: GEAR_PLATFORM, item, email: "bench@example.com" });
  const requests = options.connections * 8;
  const statuses = await Promise.all(
    Array.from({ length: requests }, () =>
      fetch(`${origin}/api/v1/gear`, { method: "POST", headers, body }).then(async (r) => (await r.arrayBuffer(), r.status)),
    ),
  );
  const { rows } = await pool.query<{ held: number }>(
    `SELECT count(*)::int AS held FROM intents i JOIN gear_items g ON g.id = i.gear_item_id
     WHERE g.item = $1 AND i.status IN ('requires_payment', 'paid', 'fulfilled')`,
    [item],
  );
  const created = statuses.filter((s) => s === 201).length;
  const refused = statuses.filter((s) => s === 409).length;
  console.log(
    `Oversell check: ${stock} units, ${requests} concurrent requests: ${created} × 201, ${refused} × 409, ${rows[0]?.held ?? 0} held.`,
  );
  return { stock, requests, created, refused, other: requests - created - refused, held: rows[0]?.held ?? 0 };
}

async function run(pool: pg.Pool, spec: Omit<LoadSpec, "duration" | "warmup">, warmup = WARMUP_SECONDS): Promise<Measurement> {
  const m = await measure({ ...spec, duration: options.duration, warmup });
  const failed = m.non2xx + m.errors > 0 ? `  (${m.non2xx} non-2xx, ${m.errors} errors)` : "";
  console.log(
    `  ${spec.method ?? "GET"} ${decodeURIComponent(spec.path).slice(0, 60).padEnd(60)} c=${String(spec.connections).padStart(3)}  ` +
      `${m.rps.toFixed(0).padStart(6)} rps  p50 ${ms(m.p50).padStart(6)}  p99 ${ms(m.p99).padStart(6)} ms${failed}`,
  );
  await waitForIdle(pool);
  return m;
}

/** The region the giftable-filter scenarios ask for. */
const GIFT_REGION = "KZ";

/**
 * The catalog scenarios, each with the size of its response: every filter kind on its first page,
 * and the filters that page through the whole store on their last full page as well.
 */
async function planCatalog(origin: string, headers: Record<string, string>): Promise<Scenario[]> {
  const base = "/api/v1/gifts/catalog";
  const totalOf = async (query: string) => (JSON.parse((await probe(origin, `${base}?${query}`, headers)).text) as { total: number }).total;
  const lastPage = (total: number) => Math.max(0, Math.floor(total / PAGE_LIMIT) - 1);
  const filters: [name: string, query: string, deep: boolean][] = [
    ["catalog", "", true],
    ["genre=RPG", "genre=RPG", true],
    ["steamCategory=specials", "steamCategory=specials", true],
    [`giftableTo=${GIFT_REGION}`, `giftableTo=${GIFT_REGION}`, true],
    [`query=${SEARCH_WORD}`, `query=${encodeURIComponent(SEARCH_WORD)}`, false],
    [`query=${FUZZY_WORD} (fuzzy)`, `query=${encodeURIComponent(FUZZY_WORD)}`, false],
  ];
  const scenarios: Scenario[] = [];
  const counts: string[] = [];
  for (const [name, query, deep] of filters) {
    const first = query ? `${base}?${query}` : base;
    scenarios.push({ name: name === "catalog" ? "catalog" : `catalog ${name}`, kind: "catalog", path: first, bytes: 0 });
    const total = await totalOf(`${query}${query ? "&" : ""}limit=${PAGE_LIMIT}`);
    counts.push(`${name} ${total}`);
    if (deep) {
      // Named "last page", not by its number, so each size's last page is one row of the growth table.
      const page = lastPage(total);
      counts[counts.length - 1] += ` (last page ${page})`;
      scenarios.push({
        name: `${name === "catalog" ? "catalog" : `catalog ${name}`} last page`,
        kind: "catalog",
        path: `${base}?${query}${query ? "&" : ""}page=${page}&limit=${PAGE_LIMIT}`,
        bytes: 0,
      });
    }
  }
  console.log(`Catalog totals: ${counts.join("; ")}.`);
  for (const s of scenarios) s.bytes = (await probe(origin, s.path, headers)).bytes;
  return scenarios;
}

/** A fresh server loads and optimises its code on first use; a short burst per route keeps that out of the figures. */
async function warmUp(
  pool: pg.Pool,
  origin: string,
  catalog: Scenario[],
  headers: Record<string, string>,
  connections = options.connections,
): Promise<void> {
  const paths = [`/api/bench/floor?bytes=${catalog[0]?.bytes ?? 2}`, ...catalog.map((s) => s.path)];
  for (const p of paths) await measure({ origin, path: p, connections, duration: 1, warmup: 0, headers });
  await waitForIdle(pool);
}

/** The 1-minute load average under which the machine counts as settled (2 cores). */
const SETTLED_LOAD = 1;
const SETTLE_TIMEOUT_MS = 180_000;

/**
 * Before a phase measures: no autovacuum worker busy anywhere in the cluster (a million seeded rows
 * keep one busy for minutes) and the 1-minute load average under SETTLED_LOAD. Lighthouse's
 * simulated throttling multiplies whatever the page's work costs at that moment, and a
 * phase's ratios move with what else the machine is doing. Waits at most 3 minutes, then says so.
 */
async function settle(adminUrl: string): Promise<void> {
  const pool = createPool(adminUrl, 1);
  const started = Date.now();
  try {
    for (;;) {
      const { rows } = await pool.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM pg_stat_activity WHERE backend_type = 'autovacuum worker'",
      );
      const vacuuming = rows[0]?.n ?? 0;
      const load = os.loadavg()[0]!;
      if (vacuuming === 0 && load < SETTLED_LOAD) break;
      if (Date.now() - started > SETTLE_TIMEOUT_MS) {
        console.log(`  Not settled after 3 minutes (${vacuuming} autovacuum workers, load average ${load.toFixed(1)}): measuring anyway.`);
        return;
      }
      await sleep(2000);
    }
  } finally {
    await pool.end();
  }
  const waited = (Date.now() - started) / 1000;
  if (waited >= 2)
    console.log(`  Waited ${waited.toFixed(0)} s for autovacuum to finish and the load average to fall under ${SETTLED_LOAD}.`);
}

/**
 * autocannon drops its connections when a run ends, but the server still finishes what it had started;
 * the next run starts when no query of the benchmark database is running any more.
 */
async function waitForIdle(pool: pg.Pool): Promise<void> {
  const deadline = Date.now() + 120_000;
  for (let quiet = 0; quiet < 2 && Date.now() < deadline; await sleep(200)) {
    const { rows } = await pool.query<{ busy: number }>(
      `SELECT count(*)::int AS busy FROM pg_stat_activity
       WHERE datname = current_database() AND backend_type = 'client backend' AND state <> 'idle' AND pid <> pg_backend_pid()`,
    );
    quiet = rows[0]?.busy ? 0 : quiet + 1;
  }
}

/** One request as the load generator sends it (no compression): its body and size; anything but 2xx stops the run. */
async function probe(origin: string, urlPath: string, headers: Record<string, string>, body?: string) {
  const res = await fetch(origin + urlPath, {
    method: body === undefined ? "GET" : "POST",
    headers: { ...headers, "accept-encoding": "identity" },
    body,
  });
  const bytes = Buffer.from(await res.arrayBuffer());
  if (!res.ok) throw new Error(`${urlPath} answered ${res.status}: ${bytes.toString("utf8").slice(0, 300)}`);
  return { bytes: bytes.length, text: bytes.toString("utf8") };
}

function intentId(text: string): string {
  return (JSON.parse(text) as { intentId: string }).intentId;
}

/** Every 201 must be an intent committed in the database; extra intents come from requests cut off at a run's end. */
async function checkDurability(pool: pg.Pool, tokenId: string, created: { gift: string[]; gear: string[] }): Promise<Durability[]> {
  await waitForIdle(pool);
  const out: Durability[] = [];
  for (const kind of ["gift", "gear"] as const) {
    const ids = created[kind];
    const { rows } = await pool.query<{ found: number; all: number }>(
      `SELECT count(*) FILTER (WHERE id = ANY($3::uuid[]))::int AS found, count(*)::int AS "all"
       FROM intents WHERE token_id = $1 AND kind = $2`,
      [tokenId, kind, ids],
    );
    out.push({ kind, created: ids.length, found: rows[0]?.found ?? 0, inDatabase: rows[0]?.all ?? 0 });
  }
  return out;
}

// ---- database ----

// ---- servers ----

/** Builds when there is no production build, or one made before the floor route existed. */
function buildIfNeeded(): void {
  const manifest = ".next/app-path-routes-manifest.json";
  const reason = !fs.existsSync(".next/BUILD_ID")
    ? "no production build yet"
    : !fs.readFileSync(manifest, "utf8").includes("/api/bench/floor/route")
      ? "the build predates /api/bench/floor"
      : null;
  if (!reason) return;
  console.log(`${reason}: running next build...`);
  const build = spawnSync(process.execPath, [nextBin, "build"], { stdio: "inherit" });
  if (build.status !== 0) throw new Error("next build failed");
}

async function startPlainServer(): Promise<string> {
  const child = fork(path.resolve("scripts/bench/plain-server.ts"), [], { execArgv: ["--import", "tsx"], stdio: "inherit" });
  stops.push(() => stopChild(child));
  const port = await new Promise<number>((resolve, reject) => {
    child.once("message", (m: { port: number }) => resolve(m.port));
    child.once("exit", (code) => reject(new Error(`the node:http baseline server exited with ${code}`)));
  });
  return `http://127.0.0.1:${port}`;
}

/**
 * `next start` with the floor route on, or with `workers` the production start's cluster of that many
 * processes (scripts/serve.ts); `stop()` returns the peak RSS of its process tree.
 */
async function startNext(dbUrl: string, label: string, extraEnv: Record<string, string>, workers?: number) {
  const port = await freeLoopbackPort();
  fs.mkdirSync(LOG_DIR, { recursive: true });
  const logFile = path.join(LOG_DIR, `next-${label}.log`);
  const log = fs.openSync(logFile, "w");
  const command =
    workers === undefined
      ? [...serverNodeFlags(), nextBin, "start", "-p", String(port), "-H", "127.0.0.1"]
      : ["--conditions=react-server", "--import", "tsx", "scripts/serve.ts", "-H", "127.0.0.1"];
  const child = spawn(process.execPath, command, {
    env: {
      ...process.env,
      NODE_ENV: "production",
      AUTH_SECRET: process.env.AUTH_SECRET ?? randomBytes(32).toString("base64url"),
      // The production configuration, with one token allowed the whole benchmark's load: the limit's
      // database statement is still paid on every request.
      RATE_LIMIT_PER_TOKEN: "10000000",
      DATABASE_URL: dbUrl,
      PORT: String(port),
      BENCH_FLOOR: "1",
      ...(workers === undefined ? {} : { WEB_CONCURRENCY: String(workers) }),
      ...extraEnv,
    },
    stdio: ["ignore", log, log],
  });
  const rss = sampleTreeRss(child.pid ?? 0);
  let stopped: Promise<number> | undefined;
  const stop = () =>
    (stopped ??= (async () => {
      const peak = rss.stop();
      await stopChild(child);
      fs.closeSync(log);
      return peak;
    })());
  stops.push(stop);
  const origin = `http://127.0.0.1:${port}`;
  await waitUntilServing({
    url: `${origin}/api/bench/floor?bytes=2`,
    child,
    logFile,
    showLog: "path",
    answered: (res) => {
      if (!res.ok) throw new Error(`the floor route answered ${res.status}; see ${logFile}`);
      // Every process of a cluster logs "Ready" once it listens; the first one answering is not all of them.
      return (fs.readFileSync(logFile, "utf8").match(/Ready in/g) ?? []).length >= (workers ?? 1);
    },
  });
  console.log(
    `Next (${label}${extraEnv.CATALOG_CACHE_TTL_MS ? `, CATALOG_CACHE_TTL_MS=${extraEnv.CATALOG_CACHE_TTL_MS}` : ""}) on ${origin}, log ${logFile}.`,
  );
  return {
    origin,
    pid: child.pid ?? 0,
    stop: async () => {
      const bytes = await stop();
      console.log(`Next (${label}) stopped; peak RSS ${mib(bytes)}.`);
      return bytes;
    },
  };
}

/**
 * `--cluster`: the same build and database served by one `next start` process, by the production
 * start's cluster of `--workers` processes on one port (each with its own DB_POOL_SIZE connections, as
 * `npm start` runs it), and by that cluster with the single process's connections shared out among
 * its processes, which separates the gain from cores from the gain from connections. All three run
 * at once and are measured in turn, round after round: on a shared machine the load drifts between
 * runs, and the median of the per-round ratios is what stays comparable.
 */
async function clusterMode(): Promise<void> {
  const startedAt = new Date();
  const loadBefore = os.loadavg();
  console.log(
    `Cluster benchmark: 1 server process against ${options.workers}; ${options.games} games, ${options.rounds} rounds of ` +
      `${options.duration} s per run, ${options.connections} connections, ${os.availableParallelism()} CPUs, load average ${loadBefore[0]!.toFixed(1)} before.`,
  );
  const adminUrl = await postgresServer();
  const db = await prepareDatabase(adminUrl, options);
  const pool = createPool(db.url, 2);
  stops.push(() => pool.end());
  buildIfNeeded();
  const headers = { authorization: `Bearer ${db.token}` };
  const postHeaders = { ...headers, "content-type": "application/json" };
  const created: string[] = [];
  const sharedPool = Math.max(2, Math.round(env.DB_POOL_SIZE / options.workers));
  const configs: { label: string; server: string; workers?: number; env: Record<string, string> }[] = [
    { label: "single", server: `1 process, pool ${env.DB_POOL_SIZE}`, env: {} },
    { label: "cluster", server: `${options.workers} processes, pool ${env.DB_POOL_SIZE} each`, workers: options.workers, env: {} },
    {
      label: "cluster-shared-pool",
      server: `${options.workers} processes, pool ${sharedPool} each`,
      workers: options.workers,
      env: { DB_POOL_SIZE: String(sharedPool) },
    },
  ];
  // The callback worker polls the database every second in each process; nothing here needs it.
  const servers = [];
  for (const config of configs) servers.push(await startNext(db.url, config.label, { ...config.env, WORKER_ENABLED: "0" }, config.workers));
  const catalogPath = "/api/v1/gifts/catalog";
  const catalogBytes = (await probe(servers[0]!.origin, catalogPath, headers)).bytes;
  const scenarios: [string, Omit<LoadSpec, "duration" | "warmup" | "origin" | "connections">][] = [
    ["floor route", { path: `/api/bench/floor?bytes=${catalogBytes}` }],
    ["catalog (cached)", { path: catalogPath, headers }],
    [
      "POST /gifts/verify",
      { path: "/api/v1/gifts/verify", method: "POST", headers: postHeaders, body: GIFT_BODY, onOk: (text) => created.push(intentId(text)) },
    ],
  ];
  for (const server of servers)
    await warmUp(pool, server.origin, [{ name: "catalog", kind: "catalog", path: catalogPath, bytes: catalogBytes }], headers);

  // Processor time the server's processes used during each measured run: how many cores it kept
  // busy, and requests per CPU-second, which the other jobs on a shared machine disturb far less
  // than they disturb throughput.
  const measured = new Map<string, { m: Measurement; cpuSeconds: number }[]>();
  for (let round = 1; round <= options.rounds; round++) {
    console.log(`Round ${round} of ${options.rounds} (load average ${os.loadavg()[0]!.toFixed(1)}):`);
    for (const [scenario, spec] of scenarios) {
      for (const [i, config] of configs.entries()) {
        const load = { origin: servers[i]!.origin, connections: options.connections, ...spec };
        await measure({ ...load, duration: WARMUP_SECONDS, warmup: 0 });
        const cpuBefore = treeCpuSeconds(servers[i]!.pid);
        const m = await run(pool, load, 0);
        const cpuSeconds = treeCpuSeconds(servers[i]!.pid) - cpuBefore;
        const key = `${scenario}/${config.label}`;
        measured.set(key, [...(measured.get(key) ?? []), { m, cpuSeconds }]);
      }
    }
  }
  const peakRss: Record<string, number> = {};
  for (const [i, config] of configs.entries()) peakRss[config.label] = await servers[i]!.stop();

  const rows: ClusterRow[] = scenarios.flatMap(([scenario]) => {
    const single = measured.get(`${scenario}/single`)!;
    return configs.map((config) => {
      const runs = measured.get(`${scenario}/${config.label}`)!;
      return {
        label: config.label,
        server: config.server,
        scenario,
        runs: runs.map((r) => r.m),
        result: medianMeasurement(runs.map((r) => r.m)),
        gain: config.label === "single" ? null : median(runs.map((r, i) => r.m.rps / single[i]!.m.rps)),
        cores: median(runs.map((r) => r.cpuSeconds / options.duration)),
        perCpuSecond: median(runs.map((r) => r.m.ok / Math.max(r.cpuSeconds, 0.01))),
      };
    });
  });
  const durability = (await checkDurability(pool, db.tokenId, { gift: created, gear: [] })).filter((d) => d.kind === "gift");
  const loadAfter = os.loadavg();
  const seconds = (Date.now() - startedAt.getTime()) / 1000;
  printClusterReport({ rows, peakRss, durability, loadBefore: loadBefore[0]!, loadAfter: loadAfter[0]!, seconds });
  const file = path.join("bench-results", `cluster-${startedAt.toISOString().replace(/[:.]/g, "-")}.json`);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const machine = {
    cpus: os.availableParallelism(),
    memoryBytes: os.totalmem(),
    node: process.version,
    postgres: db.version,
    loadBefore,
    loadAfter,
  };
  fs.writeFileSync(
    file,
    `${JSON.stringify({ startedAt: startedAt.toISOString(), seconds, options, machine, peakRssBytes: peakRss, durability, rows }, null, 2)}\n`,
  );
  console.log(`Results: ${file}`);
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Each figure the median of the rounds' figures; failures are summed. */
function medianMeasurement(runs: Measurement[]): Measurement {
  return {
    rps: median(runs.map((m) => m.rps)),
    p50: median(runs.map((m) => m.p50)),
    p99: median(runs.map((m) => m.p99)),
    ok: runs.reduce((n, m) => n + m.ok, 0),
    non2xx: runs.reduce((n, m) => n + m.non2xx, 0),
    errors: runs.reduce((n, m) => n + m.errors, 0),
  };
}

/**
 * The soak (item 8, and `--soak` alone): the production server as configured, a steady mixed load
 * (14 catalog reads of every scenario kind, 3 gift verifications and 3 gear reservations in every 20
 * requests) for `--minutes` at `--rate` requests per second, with error rate, latency and memory
 * reported every 10 s; memory and p99 must stay flat after the first minute.
 */
async function soakPhase(adminUrl: string) {
  const startedAt = new Date();
  const seconds = options.soakMinutes * 60;
  console.log(
    `\n== 8. Soak: ${options.games} games, ${options.soakMinutes} min at ${options.soakRate} requests/s, ${options.connections} connections; ` +
      `load average ${os.loadavg()[0]!.toFixed(1)}`,
  );
  const db = await prepareDatabase(adminUrl, options);
  buildIfNeeded();
  const next = await startNext(db.url, "soak", {});
  const headers = { authorization: `Bearer ${db.token}` };
  const scenarios = await planCatalog(next.origin, headers);
  let item = 0;
  const gear = {
    kind: "gear",
    method: "POST",
    path: "/api/v1/gear",
    body: () =>
      JSON.stringify({
        account: GEAR_ACCOUNT,
        platform: GEAR_PLATFORM,
        item: GEAR_ITEMS[item++ % GEAR_ITEMS.length],
        email: "soak@example.com",
      }),
  } as const;
  const gift = { kind: "gift", method: "POST", path: "/api/v1/gifts/verify", body: () => GIFT_BODY } as const;
  const reads = scenarios.map((sc) => ({ kind: "catalog", method: "GET", path: sc.path }) as const);
  const cycle: SoakRequest[] = [];
  for (let i = 0; i < 14; i++) cycle.push(reads[i % reads.length]!);
  cycle.splice(4, 0, gift, gear);
  cycle.splice(11, 0, gift, gear);
  cycle.push(gift, gear);

  console.log("\n  time   requests    rps   errors  non-2xx   p50 ms   p99 ms   RSS");
  const windows = await soak(
    {
      origin: next.origin,
      pid: next.pid,
      headers,
      cycle,
      seconds,
      windowSeconds: 10,
      rate: options.soakRate,
      connections: options.connections,
    },
    (w) =>
      console.log(
        `  ${`${w.at.toFixed(0)} s`.padStart(5)}  ${String(w.requests).padStart(8)}  ${w.rps.toFixed(0).padStart(5)}  ${String(w.errors).padStart(7)}  ${String(w.non2xx).padStart(7)}  ${ms(w.p50).padStart(7)}  ${ms(w.p99).padStart(7)}   ${mib(w.rssBytes)}`,
      ),
  );
  const peakRss = await next.stop();

  const total = windows.reduce((n, w) => n + w.requests, 0);
  const failed = windows.reduce((n, w) => n + w.errors + w.non2xx, 0);
  // The first minute includes warm-up (JIT, caches, pool growth); trends are read after it.
  const full = windows.filter((w) => w.seconds >= 5);
  const settled = full.filter((w) => w.at > 60);
  const trend = settled.length >= 2 ? settled : full;
  const span = trend === settled ? "after the first minute" : "whole run (too short to leave out the first minute)";
  const rssSlope = slope(trend.map((w) => [w.at / 60, w.rssBytes / 2 ** 20]));
  const p99Slope = slope(trend.map((w) => [w.at / 60, w.p99]));
  const third = Math.max(1, Math.floor(trend.length / 3));
  const medianOf = (ws: typeof trend, pick: (w: (typeof trend)[number]) => number) => median(ws.map(pick));
  const early = { rss: medianOf(trend.slice(0, third), (w) => w.rssBytes), p99: medianOf(trend.slice(0, third), (w) => w.p99) };
  const late = { rss: medianOf(trend.slice(-third), (w) => w.rssBytes), p99: medianOf(trend.slice(-third), (w) => w.p99) };
  console.log(
    `\nSoak: ${total} requests in ${options.soakMinutes} min, ${failed} failed (${((failed / Math.max(total, 1)) * 100).toFixed(3)} %).`,
  );
  console.log(
    `  memory, ${span}: first third ${mib(early.rss)}, last third ${mib(late.rss)} (medians), trend ${rssSlope >= 0 ? "+" : ""}${rssSlope.toFixed(2)} MiB/min`,
  );
  console.log(
    `  p99, ${span}: first third ${ms(early.p99)}, last third ${ms(late.p99)} ms, trend ${p99Slope >= 0 ? "+" : ""}${p99Slope.toFixed(3)} ms/min`,
  );
  // Flat: the last third of the run within 10 % of the first third's memory and 25 % of its p99.
  const verdicts: Verdict[] = [
    { item: "8 soak", figure: "failed requests", value: String(failed), target: "0", met: failed === 0 },
    {
      item: "8 soak",
      figure: "memory, last third / first third",
      value: ratio(late.rss / early.rss),
      target: "<= 1.10x",
      met: late.rss / early.rss <= 1.1,
    },
    {
      item: "8 soak",
      figure: "p99, last third / first third",
      value: ratio(late.p99 / early.p99),
      target: "<= 1.25x",
      met: late.p99 / early.p99 <= 1.25,
    },
  ];
  const file = path.join("bench-results", `soak-${startedAt.toISOString().replace(/[:.]/g, "-")}.json`);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(
    file,
    `${JSON.stringify({ startedAt: startedAt.toISOString(), options, total, failed, rssSlopeMiBPerMin: rssSlope, p99SlopeMsPerMin: p99Slope, early, late, windows }, null, 2)}\n`,
  );
  console.log(`Soak results: ${file}`);
  if (options.soak) printSummary(verdicts);
  return { peakRss, total, failed, rssSlope, p99Slope, early, late, verdicts };
}

function phaseList(raw: string | undefined): Phase[] {
  if (raw === undefined) return [...PHASES];
  const asked = raw.split(",").map((p) => p.trim());
  const unknown = asked.filter((p) => !(PHASES as readonly string[]).includes(p));
  if (unknown.length > 0 || asked.length === 0) {
    console.error(`--only takes a comma-separated list of ${PHASES.join(", ")}`);
    process.exit(2);
  }
  return asked as Phase[];
}

function sizeList(raw: string | undefined, fallback: number[]): number[] {
  if (raw === undefined) return fallback;
  const sizes = raw.split(",").map(Number);
  if (sizes.some((n) => !Number.isInteger(n) || n < 10 || n > 2_000_000)) {
    console.error("--sizes takes a comma-separated list of game counts from 10 to 2,000,000");
    process.exit(2);
  }
  return [...new Set(sizes)].sort((a, b) => a - b);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

main()
  .catch((err: unknown) => {
    console.error(`bench failed: ${err instanceof Error ? err.message : String(err)}`);
    process.exitCode = 1;
  })
  .finally(() => stopAll());
