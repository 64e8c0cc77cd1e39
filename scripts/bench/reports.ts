// The back office's reports under a grown store (issue 15, item 6): the order list and the campaign
// report over a seeded million intents, timed through the production server with a staff session
// and, beside each page, the service call it makes, in this process, so the page's own cost shows.
// scripts/bench-reports.ts runs it alone; scripts/bench.ts can call the same three functions.
import crypto from "node:crypto";
import type pg from "pg";
import { hashPassword } from "@/lib/auth/password";
import { addDays } from "@/lib/campaigns/period";
import { createDb, type Database } from "@/lib/db/client";
import { adminOrderFilterSchema } from "@/lib/schemas/admin-orders";
import { adminOrdersCsv, countAdminOrders, listAdminOrders } from "@/lib/services/admin-orders";
import { CLI_ACTOR } from "@/lib/services/audit";
import { campaignReport, campaignReportCsv } from "@/lib/services/campaign-report";
import { grantStaffRole } from "@/lib/services/staff";
import { ms } from "./report";
import type { ReportsSeed } from "./reports-seed";

export { DEFAULT_REPORT_DAYS, DEFAULT_REPORT_INTENTS, reportsSeedMarker, seedReports } from "./reports-seed";
export type { ReportsSeed, ReportsSeedOptions } from "./reports-seed";
export { measureInsertCost, measureTriggerTime, measureVerifyCost, printWriteCost } from "./reports-writes";
export type { InsertCost, TriggerTime, WriteCost, WriteCostRow } from "./reports-writes";

/** Issue 15's target for every report, page and service alike. */
export const REPORT_TARGET_P50_MS = 300;
const STAFF_EMAIL = "reports-bench@staff.example";

export interface ReportsMeasureOptions {
  /** The production server (`next start` of the build) serving the seeded database. */
  origin: string;
  /** A pool on that database: the staff account is made through it, and the service calls run on it. */
  pool: pg.Pool;
  /** The seed's last day: the periods asked for end there, whenever the seed was made. */
  seed: Pick<ReportsSeed, "lastDay">;
  /** Timed requests per report and layer (after the warm-up); 20 by default. */
  requests?: number;
  /** Untimed requests first, so a fresh server's first compilation and cold caches are left out; 3 by default. */
  warmup?: number;
  log?: (line: string) => void;
}

export interface ReportRow {
  report: "orders" | "campaigns";
  scenario: string;
  /** `page`: over HTTP with a staff session; `service`: the service call the page makes, in this process. */
  layer: "page" | "service";
  /** The URL the page was asked with (the service got the same parameters). */
  path: string;
  /** What is timed: the whole response, or until the first data row of a streamed export. */
  timed: "response" | "first row";
  samples: number[];
  p50: number;
  p99: number;
  /** Size of the last response (page layer). */
  bytes: number | null;
}

export interface AssessedReportRow extends ReportRow {
  met: boolean;
  verdict: string;
}

export interface ReportScenario {
  report: ReportRow["report"];
  scenario: string;
  path: string;
  timed: ReportRow["timed"];
  /** The same work in this process. */
  service: (db: Database) => Promise<unknown>;
}

/**
 * Times every report an operator or marketer opens: the order list newest first, with each kind of
 * filter, two searches, a deep page and the sort by amount, and its CSV export (to the first data
 * row); the campaign report over 7, 30 and 90 days and its CSV export. Each as a page and as the
 * service call behind it, `requests` times one after another after `warmup` untimed ones.
 */
export async function measureReports(options: ReportsMeasureOptions): Promise<ReportRow[]> {
  const { origin, pool } = options;
  const requests = options.requests ?? 20;
  const warmup = options.warmup ?? 3;
  const log = options.log ?? ((line: string) => console.log(line));
  const db = createDb(pool);
  const cookie = await staffSession(origin, pool, db);
  const scenarios = await reportScenarios(pool, options.seed.lastDay);
  const rows: ReportRow[] = [];
  for (const s of scenarios) {
    for (const layer of ["service", "page"] as const) {
      let bytes: number | null = null;
      const once = async () => {
        const started = performance.now();
        if (layer === "service") await s.service(db);
        else bytes = await fetchTimed(origin + s.path, cookie, s.timed);
        return performance.now() - started;
      };
      for (let i = 0; i < warmup; i++) await once();
      const samples: number[] = [];
      for (let i = 0; i < requests; i++) samples.push(await once());
      const row: ReportRow = {
        report: s.report,
        scenario: s.scenario,
        layer,
        path: s.path,
        timed: s.timed,
        samples,
        p50: percentile(samples, 0.5),
        p99: percentile(samples, 0.99),
        bytes,
      };
      rows.push(row);
      log(
        `  ${`${s.report} ${s.scenario}`.padEnd(44)} ${layer.padEnd(7)}  p50 ${ms(row.p50).padStart(7)}  p99 ${ms(row.p99).padStart(7)} ms`,
      );
    }
  }
  return rows;
}

/** Met when p50 is under the target. */
export function assessReport(row: ReportRow): AssessedReportRow {
  const met = row.p50 < REPORT_TARGET_P50_MS;
  return { ...row, met, verdict: met ? "met" : `MISSED (p50 ${ms(row.p50)} ms)` };
}

/** The table: each report's page and service timings beside the target, and how many met it. */
export function printReports(rows: ReportRow[]): void {
  const assessed = rows.map(assessReport);
  const header = ["report", "scenario", "layer", "timed", "n", "p50 ms", "p99 ms", "target", "verdict"];
  const lines = assessed.map((r) => [
    r.report,
    r.scenario,
    r.layer,
    r.timed,
    String(r.samples.length),
    ms(r.p50),
    ms(r.p99),
    `p50 < ${REPORT_TARGET_P50_MS} ms`,
    r.verdict,
  ]);
  const all = [header, ...lines];
  const numeric = new Set([4, 5, 6]);
  const widths = header.map((_, i) => Math.max(...all.map((l) => l[i]!.length)));
  const format = (l: string[]) =>
    l
      .map((c, i) => (numeric.has(i) ? c.padStart(widths[i]!) : c.padEnd(widths[i]!)))
      .join("  ")
      .trimEnd();
  console.log(`\n${format(header)}\n${"-".repeat(widths.reduce((a, b) => a + b + 2, -2))}`);
  for (const l of lines) console.log(format(l));
  console.log(
    `\nReports: met ${assessed.filter((r) => r.met).length} of ${assessed.length} (target p50 < ${REPORT_TARGET_P50_MS} ms, ` +
      `pages over HTTP with a staff session and the services in-process; p99 of ${rows[0]?.samples.length ?? 0} requests is their slowest but one or two).`,
  );
}

/** The share `q` of the sorted samples, interpolated. */
function percentile(samples: number[], q: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const at = (sorted.length - 1) * q;
  const lo = Math.floor(at);
  const hi = Math.ceil(at);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (at - lo);
}

/**
 * A marketer (orders:read and campaigns:read) signed in through the credentials form as a browser
 * would: the account gets a fresh password each run, its role through the staff service.
 */
async function staffSession(origin: string, pool: pg.Pool, db: Database): Promise<string> {
  const password = crypto.randomBytes(18).toString("base64url");
  await pool.query(
    // Confirmed, as a role counts only on an account that proved its address.
    `INSERT INTO users (email, password_hash, email_confirmed_at) VALUES ($1, $2, now())
     ON CONFLICT ((lower(email))) DO UPDATE SET password_hash = EXCLUDED.password_hash, session_version = users.session_version + 1,
       email_confirmed_at = coalesce(users.email_confirmed_at, now())`,
    [STAFF_EMAIL, await hashPassword(password)],
  );
  await grantStaffRole(db, CLI_ACTOR, STAFF_EMAIL, "marketer");
  const jar = new Map<string, string>();
  const send = async (path: string, init: RequestInit = {}) => {
    const headers = new Headers(init.headers);
    if (jar.size) headers.set("cookie", [...jar].map(([k, v]) => `${k}=${v}`).join("; "));
    const res = await fetch(origin + path, { ...init, headers, redirect: "manual" });
    for (const line of res.headers.getSetCookie()) {
      const pair = line.split(";")[0] ?? "";
      const eq = pair.indexOf("=");
      if (eq > 0) jar.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim());
    }
    return res;
  };
  const { csrfToken } = (await (await send("/api/auth/csrf")).json()) as { csrfToken: string };
  await send("/api/auth/callback/credentials", {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ email: STAFF_EMAIL, password, csrfToken, callbackUrl: `${origin}/admin`, json: "true" }),
  });
  const cookie = [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
  const check = await fetch(`${origin}/admin/orders`, { headers: { cookie }, redirect: "manual" });
  await check.arrayBuffer();
  if (check.status !== 200) throw new Error(`the staff sign-in did not take: /admin/orders answered ${check.status}`);
  return cookie;
}

/** One request; anything but 200 stops the benchmark. Returns the bytes read. */
async function fetchTimed(url: string, cookie: string, timed: ReportRow["timed"]): Promise<number> {
  const abort = new AbortController();
  const res = await fetch(url, { headers: { cookie, "accept-encoding": "identity" }, redirect: "manual", signal: abort.signal });
  if (res.status !== 200) throw new Error(`${url} answered ${res.status}: ${(await res.text()).slice(0, 300)}`);
  if (timed === "response") return (await res.arrayBuffer()).byteLength;
  // A streamed export: read until the header line and one data row have come, then hang up.
  const reader = res.body!.getReader();
  let bytes = 0;
  let lines = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes += value.byteLength;
    for (const b of value) if (b === 10) lines++;
    if (lines >= 2) break;
  }
  abort.abort();
  await reader.cancel().catch(() => {});
  return bytes;
}

/** Every report measured, with its URL and the service call behind it. */
export async function reportScenarios(pool: pg.Pool, lastDay: string): Promise<ReportScenario[]> {
  return [...(await orderScenarios(pool, lastDay)), ...campaignScenarios(lastDay)];
}

/** The order list's scenarios, with values taken from the seeded orders (a busy game, campaign, buyer, recent order). */
async function orderScenarios(pool: pg.Pool, lastDay: string): Promise<ReportScenario[]> {
  const one = async <T>(text: string): Promise<T> => {
    const { rows } = await pool.query(text);
    if (!rows[0]) throw new Error(`no seeded orders to take a value from: ${text}`);
    return Object.values(rows[0])[0] as T;
  };
  const game = await one<number>(
    "SELECT app_id FROM intents WHERE created_at > now() - interval '7 days' GROUP BY app_id ORDER BY count(*) DESC LIMIT 1",
  );
  const title = await one<string>(`SELECT lower(split_part(title, ' ', 1)) FROM games WHERE app_id = ${Number(game)}`);
  const campaign = await one<string>(
    `SELECT attribution ->> 'utm_campaign' FROM intents WHERE created_at > now() - interval '30 days' AND attribution ? 'utm_campaign'
     GROUP BY 1 ORDER BY count(*) DESC LIMIT 1`,
  );
  const recent = await one<string>("SELECT id FROM intents ORDER BY created_at DESC, id DESC OFFSET 100 LIMIT 1");
  const email = await one<string>(`SELECT email FROM intents WHERE id = '${recent}'`);
  const params: [string, Record<string, string>][] = [
    ["newest first", {}],
    ["state=paid", { state: "paid" }],
    ["state=expired", { state: "expired" }],
    ["delivery=failed", { delivery: "failed" }],
    ["kind=gear", { kind: "gear" }],
    [`game=${game}`, { game: String(game) }],
    [`game="${title}"`, { game: title }],
    ["a week (from, to)", { from: addDays(lastDay, -13), to: addDays(lastDay, -7) }],
    [`campaign=${campaign}`, { campaign }],
    ["search: e-mail", { q: email }],
    ["search: order id (8 chars)", { q: recent.slice(0, 8) }],
    ["page 2000", { page: "2000" }],
    ["sort=amount", { sort: "amount", dir: "desc" }],
    ["sort=state", { sort: "state", dir: "asc" }],
    ["gifts fulfilled in a week", { kind: "gift", state: "fulfilled", from: addDays(lastDay, -13), to: addDays(lastDay, -7) }],
  ];
  const query = (p: Record<string, string>) => {
    const q = new URLSearchParams(p).toString();
    return q ? `?${q}` : "";
  };
  const scenarios: ReportScenario[] = params.map(([scenario, p]) => ({
    report: "orders",
    scenario,
    path: `/admin/orders${query(p)}`,
    timed: "response",
    service: (db) => listAdminOrders(db, adminOrderFilterSchema.parse(p)),
  }));
  scenarios.push({
    report: "orders",
    scenario: "CSV export",
    path: "/admin/orders/export",
    timed: "first row",
    // What the export route does before its first data row: the count for its headers, then the first batch.
    service: async (db) => {
      const filter = adminOrderFilterSchema.parse({});
      await countAdminOrders(db, filter);
      const rows = adminOrdersCsv(db, filter);
      await rows.next();
      await rows.next();
      await rows.return(undefined);
    },
  });
  return scenarios;
}

function campaignScenarios(lastDay: string): ReportScenario[] {
  const periods = [7, 30, 90].map((days) => ({ days, from: addDays(lastDay, -(days - 1)), to: lastDay }));
  const scenarios: ReportScenario[] = periods.map(({ days, from, to }) => ({
    report: "campaigns",
    scenario: `${days} days`,
    path: `/admin/campaigns?from=${from}&to=${to}`,
    timed: "response",
    service: (db) => campaignReport(db, { from, to }, { sort: "revenue", limit: 25, offset: 0 }),
  }));
  const { from, to } = periods[2]!;
  scenarios.push({
    report: "campaigns",
    scenario: "CSV export, 90 days",
    path: `/admin/campaigns/export?from=${from}&to=${to}`,
    timed: "response",
    service: (db) => campaignReportCsv(db, { from, to }, "revenue"),
  });
  return scenarios;
}
