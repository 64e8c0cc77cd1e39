// Lighthouse 12 (Debian's Chromium) against a running server: every page a shopper sees, mobile and
// desktop, N runs each, and the catalog's first-load JavaScript. Used by `npm run lighthouse`, and
// meant for `npm run bench` too: measurePages() measures, printPages() prints each figure with its target.
//
// The reported run is the one with the median performance score, as Lighthouse's guidance on variance
// advises; the other scores are the median of the runs, and every run's performance score is kept.
//
// First-load JavaScript: every response of type Script in Lighthouse's own network record of a page
// load, that is, every script the page fetches from navigation until the network is quiet, with no
// input from the shopper (scripts fetched only on a click or focus are not in it; scripts an effect
// fetches right after hydration are). Compressed is the bytes on the wire as served (`transferSize`,
// gzip from `next start`, headers included); raw is the decoded size (`resourceSize`). It is taken
// from the mobile run with the median performance score.
import fs from "node:fs";
import { join } from "node:path";
import * as chromeLauncher from "chrome-launcher";
import lighthouse, { desktopConfig, type Flags, type RunnerResult } from "lighthouse";
import { createDb, createPool } from "@/lib/db/client";
import { createApiToken, ensureUser } from "@/lib/services/tokens";

export const PAGE_TARGETS = {
  /** Lighthouse mobile performance, median of the runs. */
  performance: 95,
  /** Lighthouse accessibility, median of the runs. */
  accessibility: 100,
  /** The catalog's first-load JavaScript, compressed. */
  catalogFirstLoadJsBytes: 150 * 1024,
} as const;

export type PageName = "catalog" | "game" | "gear" | "pay" | "order" | "sign-up";
export type FormFactor = "mobile" | "desktop";

/** The pages a whole run measures: every page a shopper sees on the way to a purchase. */
export const PAGE_NAMES: readonly PageName[] = ["catalog", "game", "gear", "pay", "order"];
/** Measured only when named (`--pages sign-up`): its first-load JavaScript is watched since the password estimator. */
export const EXTRA_PAGE_NAMES: readonly PageName[] = ["sign-up"];

export interface FirstLoadJs {
  /** Bytes on the wire (`transferSize`). */
  compressedBytes: number;
  /** Decoded bytes (`resourceSize`). */
  rawBytes: number;
  files: number;
  /** Each script, largest first: path and compressed bytes. */
  scripts: { url: string; compressedBytes: number; rawBytes: number }[];
}

export interface PageRow {
  page: PageName;
  /** The path measured (pay and order pages: the fresh intent of the median run). */
  path: string;
  formFactor: FormFactor;
  runs: number;
  /** Median performance score. */
  performance: number;
  /** Every run's performance score, lowest first. */
  spread: number[];
  accessibility: number;
  bestPractices: number;
  seo: number;
  /** Of the median run (Lighthouse's simulated mobile or desktop throttling). */
  lcpMs: number;
  tbtMs: number;
  cls: number;
  /** Of the median run; the target applies to the catalog's mobile row. */
  firstLoadJs: FirstLoadJs;
  /**
   * Lighthouse's measure of the machine's speed during the runs (median; higher is faster). Its
   * throttling multiplies the CPU time it observes, so a busy machine scores a page lower.
   */
  benchmarkIndex: number;
}

export interface MeasurePagesOptions {
  /** A production server (`next start`), e.g. `http://127.0.0.1:3000`. */
  baseUrl: string;
  /** The server's database: the pay and order pages need an intent made for them. */
  databaseUrl: string;
  /** Runs per page and form factor (default 5). */
  runs?: number;
  pages?: readonly PageName[];
  formFactors?: readonly FormFactor[];
  /** Default: CHROMIUM_PATH, else /usr/bin/chromium. */
  chromePath?: string;
  /** Where to write each median run's full Lighthouse report (`<page>-<form>.json`), for a closer look. */
  reportDir?: string;
  /** Called after each Lighthouse run, e.g. to show progress. */
  onRun?: (page: PageName, formFactor: FormFactor, run: number, performance: number) => void;
}

/** The game that the game page, and the gifts behind the pay and order pages, are about. */
const GAME_ID = 620;

/** Lighthouse every page and form factor `runs` times, one after the other; see the file's header. */
export async function measurePages(options: MeasurePagesOptions): Promise<PageRow[]> {
  const runs = options.runs ?? 5;
  if (!Number.isInteger(runs) || runs < 1) throw new Error("runs must be a whole number >= 1");
  const baseUrl = options.baseUrl.replace(/\/$/, "");
  const intents = await intentMaker(baseUrl, options.databaseUrl);
  const chrome = await chromeLauncher.launch({
    chromePath: options.chromePath ?? process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    chromeFlags: ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-dev-shm-usage"],
  });
  const flags: Flags = {
    port: chrome.port,
    output: "json",
    logLevel: "error",
    onlyCategories: ["performance", "accessibility", "best-practices", "seo"],
  };
  const rows: PageRow[] = [];
  try {
    for (const page of options.pages ?? PAGE_NAMES) {
      for (const formFactor of options.formFactors ?? (["mobile", "desktop"] as const)) {
        const results: { path: string; result: RunnerResult }[] = [];
        for (let run = 0; run < runs; run++) {
          // Each run of the pay and order pages gets an intent of its own: a first view, as a shopper has.
          const path = await pathOf(page, intents);
          // Warm the server's caches: the first render after a start is not what a shopper meets.
          if (run === 0) await (await fetch(baseUrl + path)).arrayBuffer();
          const result = await lighthouse(baseUrl + path, flags, formFactor === "desktop" ? desktopConfig : undefined);
          if (!result) throw new Error(`Lighthouse returned nothing for ${path}`);
          const failure = result.lhr.runtimeError;
          if (failure) throw new Error(`Lighthouse could not load ${path}: ${failure.code} ${failure.message}`);
          results.push({ path, result });
          options.onRun?.(page, formFactor, run + 1, score(result, "performance"));
        }
        const { row, median } = summarise(page, formFactor, results);
        rows.push(row);
        if (options.reportDir) {
          fs.mkdirSync(options.reportDir, { recursive: true });
          fs.writeFileSync(join(options.reportDir, `${page}-${formFactor}.json`), JSON.stringify(median.lhr));
        }
      }
    }
  } finally {
    chrome.kill();
    await intents.close();
  }
  return rows;
}

function summarise(
  page: PageName,
  formFactor: FormFactor,
  results: { path: string; result: RunnerResult }[],
): { row: PageRow; median: RunnerResult } {
  const byPerformance = [...results].sort((a, b) => score(a.result, "performance") - score(b.result, "performance"));
  const { path, result } = byPerformance[Math.floor((byPerformance.length - 1) / 2)]!;
  const medianScore = (id: string) => median(results.map((r) => score(r.result, id)));
  const row: PageRow = {
    page,
    path,
    formFactor,
    runs: results.length,
    performance: score(result, "performance"),
    spread: byPerformance.map((r) => score(r.result, "performance")),
    accessibility: medianScore("accessibility"),
    bestPractices: medianScore("best-practices"),
    seo: medianScore("seo"),
    lcpMs: Math.round(numeric(result, "largest-contentful-paint")),
    tbtMs: Math.round(numeric(result, "total-blocking-time")),
    cls: Number(numeric(result, "cumulative-layout-shift").toFixed(3)),
    firstLoadJs: firstLoadJs(result),
    benchmarkIndex: median(results.map((r) => Math.round(r.result.lhr.environment.benchmarkIndex))),
  };
  return { row, median: result };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
}

function score(result: RunnerResult, id: string): number {
  return Math.round((result.lhr.categories[id]?.score ?? 0) * 100);
}

function numeric(result: RunnerResult, id: string): number {
  return result.lhr.audits[id]?.numericValue ?? Number.NaN;
}

/** Every script in Lighthouse's network record of the load (see the file's header). */
function firstLoadJs(result: RunnerResult): FirstLoadJs {
  const details = result.lhr.audits["network-requests"]?.details as { items?: Array<Record<string, unknown>> } | undefined;
  const scripts = (details?.items ?? [])
    .filter((item) => item.resourceType === "Script")
    .map((item) => ({
      url: new URL(String(item.url)).pathname,
      compressedBytes: Number(item.transferSize ?? 0),
      rawBytes: Number(item.resourceSize ?? 0),
    }))
    .sort((a, b) => b.compressedBytes - a.compressedBytes);
  return {
    compressedBytes: scripts.reduce((sum, s) => sum + s.compressedBytes, 0),
    rawBytes: scripts.reduce((sum, s) => sum + s.rawBytes, 0),
    files: scripts.length,
    scripts,
  };
}

// ---- the intents behind the pay and order pages ----

interface IntentMaker {
  /** A fresh gift intent awaiting payment: the hosted payment page's `/pay/{id}`. */
  payPath(): Promise<string>;
  /** A fresh gift intent, paid on the payment page's own form: the receipt's signed `/orders/{id}?t=…`. */
  orderPath(): Promise<string>;
  close(): Promise<void>;
}

async function pathOf(page: PageName, intents: IntentMaker): Promise<string> {
  switch (page) {
    case "catalog":
      return "/";
    case "game":
      return `/games/${GAME_ID}`;
    case "gear":
      return "/gear";
    case "pay":
      return intents.payPath();
    case "order":
      return intents.orderPath();
    case "sign-up":
      return "/sign-up";
  }
}

async function intentMaker(baseUrl: string, databaseUrl: string): Promise<IntentMaker> {
  const pool = createPool(databaseUrl, 2);
  let token: string | null = null;
  let made = 0;

  // A partner token of its own, as a shop calling the API would have; made on first use only.
  const bearer = async () => {
    if (token) return token;
    const db = createDb(pool);
    const userId = await ensureUser(db, "lighthouse@example.com");
    token = (await createApiToken(db, { userId, name: `lighthouse-${Date.now()}`, scopes: ["gifts:verify"] })).token;
    return token;
  };

  const createIntent = async (): Promise<string> => {
    made += 1;
    const response = await fetch(`${baseUrl}/api/v1/gifts/verify`, {
      method: "POST",
      headers: { authorization: `Bearer ${await bearer()}`, "content-type": "application/json" },
      body: JSON.stringify({
        item: String(GAME_ID),
        target: { inviteUrl: "https://s.team/p/hgkm-nprt/QWERTYUI", region: "RU" },
        email: `lighthouse-${made}@example.com`,
        fee: "excluded",
      }),
    });
    const body = (await response.json().catch(() => null)) as { intentId?: string } | null;
    if (response.status !== 201 || !body?.intentId)
      throw new Error(`POST /api/v1/gifts/verify answered ${response.status}: ${JSON.stringify(body)}`);
    return body.intentId;
  };

  return {
    payPath: async () => `/pay/${await createIntent()}`,
    orderPath: async () => {
      const intentId = await createIntent();
      const paid = await fetch(`${baseUrl}/pay/${intentId}/submit`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: "choice=pay",
        redirect: "manual",
      });
      if (paid.status !== 303) throw new Error(`paying ${intentId} on its payment page answered ${paid.status}`);
      // The link the shopper's receipt carries, as the server signed it (whatever its AUTH_SECRET).
      const { rows } = await pool.query<{ text: string }>("SELECT text FROM mail_messages WHERE intent_id = $1 AND kind = 'receipt'", [
        intentId,
      ]);
      const link = new RegExp(`/orders/${intentId}\\?t=[A-Za-z0-9_-]{43}`).exec(rows[0]?.text ?? "")?.[0];
      if (!link) throw new Error(`no receipt with an order link for ${intentId}`);
      return link;
    },
    close: () => pool.end(),
  };
}

// ---- the printed table ----

const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;
const verdict = (ok: boolean) => (ok ? "met" : "MISSED");

/** Each row's figures, then each target with met/MISSED (mobile performance and accessibility, the catalog's JS). */
export function printPages(rows: PageRow[], log: (line: string) => void = console.log): void {
  const runs = rows[0]?.runs ?? 0;
  log(`\nPages: Lighthouse 12, median of ${runs} run${runs === 1 ? "" : "s"} by performance score (every run's score in brackets).`);
  log("page     form     perf  a11y  best  seo   LCP ms  TBT ms  CLS    JS gzip / raw, files         CPU   runs");
  for (const r of rows) {
    const js = r.firstLoadJs;
    log(
      `${r.page.padEnd(8)} ${r.formFactor.padEnd(8)} ${String(r.performance).padStart(4)}  ${String(r.accessibility).padStart(4)}  ${String(r.bestPractices).padStart(4)}  ${String(r.seo).padStart(3)}  ${String(r.lcpMs).padStart(7)}  ${String(r.tbtMs).padStart(6)}  ${r.cls.toFixed(3)}  ${`${kib(js.compressedBytes)} / ${kib(js.rawBytes)}, ${js.files}`.padEnd(27)}  ${String(r.benchmarkIndex).padStart(4)}  [${r.spread.join(" ")}]`,
    );
  }
  log("CPU: Lighthouse's benchmark index of the machine during the runs (median; higher is faster).");
  log("\nTargets (mobile; accessibility also on desktop):");
  for (const r of rows) {
    const perf =
      r.formFactor === "mobile"
        ? `performance ${r.performance} (target >= ${PAGE_TARGETS.performance}) ${verdict(r.performance >= PAGE_TARGETS.performance)}, `
        : "";
    log(
      `  ${`${r.page} ${r.formFactor}`.padEnd(16)} ${perf}accessibility ${r.accessibility} (target ${PAGE_TARGETS.accessibility}) ${verdict(r.accessibility >= PAGE_TARGETS.accessibility)}`,
    );
  }
  for (const row of rows.filter((r) => (r.page === "catalog" || r.page === "sign-up") && r.formFactor === "mobile")) {
    const js = row.firstLoadJs;
    const target =
      row.page === "catalog"
        ? ` (target <= ${kib(PAGE_TARGETS.catalogFirstLoadJsBytes)}) ${verdict(js.compressedBytes <= PAGE_TARGETS.catalogFirstLoadJsBytes)}`
        : "";
    log(`  ${row.page} first-load JS ${kib(js.compressedBytes)} compressed${target}; ${kib(js.rawBytes)} raw, ${js.files} files`);
    log("    (every script in Lighthouse's network record of the mobile load, no input; compressed = bytes on the wire)");
    for (const s of js.scripts) log(`    ${kib(s.compressedBytes).padStart(10)}  ${kib(s.rawBytes).padStart(10)}  ${s.url}`);
  }
}

/** Whether every target that the rows cover is met. */
export function pagesMet(rows: PageRow[]): boolean {
  return rows.every(
    (r) =>
      r.accessibility >= PAGE_TARGETS.accessibility &&
      (r.formFactor !== "mobile" || r.performance >= PAGE_TARGETS.performance) &&
      (r.page !== "catalog" || r.formFactor !== "mobile" || r.firstLoadJs.compressedBytes <= PAGE_TARGETS.catalogFirstLoadJsBytes),
  );
}
