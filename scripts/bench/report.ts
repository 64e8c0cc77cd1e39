// Targets and the printed table of scripts/bench.ts.
import type { Measurement } from "./load";

export type Kind = "catalog" | "gift" | "gear";

export interface Row {
  phase: "cached" | "uncached";
  scenario: string;
  kind: Kind;
  connections: number;
  /** Size of the scenario's response body, which both baselines send too. */
  bytes: number;
  result: Measurement;
  /** node:http with the same body and connections; not measured at one connection. */
  plain: Measurement | null;
  /** The floor route with the same body and connections, measured just before `result`. */
  floor: Measurement;
  /** Every floor-then-scenario pair's throughput ratio, in the order measured; `result` and `floor` are the median pair. */
  pairRatios: number[];
}

/** A floor run and the scenario's run right after it. */
export interface Pair {
  floor: Measurement;
  result: Measurement;
}

/**
 * The pair with the median throughput ratio (of an even number, the lower middle one). Each ratio
 * sets two runs side by side in time, so a slow spell of the machine touches both; the median pair
 * is the one reported, as Lighthouse reports its median run.
 */
export function medianPair(pairs: Pair[]): Pair & { pairRatios: number[] } {
  if (pairs.length === 0) throw new Error("no pairs measured");
  const ratioOf = (p: Pair) => p.result.rps / p.floor.rps;
  const sorted = [...pairs].sort((a, b) => ratioOf(a) - ratioOf(b));
  return { ...sorted[Math.floor((sorted.length - 1) / 2)]!, pairRatios: pairs.map(ratioOf) };
}

export interface AssessedRow extends Row {
  vsPlain: number | null;
  vsFloor: number;
  p99VsFloor: number;
  target: string;
  /** null when no target applies. */
  met: boolean | null;
  verdict: string;
}

export interface Durability {
  kind: "gift" | "gear";
  /** 201 responses read by the load generator (probe, warm-up and measured run). */
  created: number;
  /** How many of their intent ids are committed in the database. */
  found: number;
  /** Every intent of that kind the run's token made, including requests cut off when a run stopped. */
  inDatabase: number;
}

/** Issue 15's targets, each checked against figures measured in the same run. */
export const TARGETS = {
  /** Catalog as served (cache on), 32 connections, limits on: throughput and p99 against the floor's. */
  cachedThroughputVsFloor: 0.9,
  cachedP99VsFloor: 1.5,
  /** Cache off, one connection. */
  uncachedP50Ms: 5,
  uncachedP99Ms: 20,
  /** From 100,000 to 1,000,000 games, no scenario's p50 more than doubles. */
  growthP50Ratio: 2,
  /** Seeding 1,000,000 games "stays a few minutes". */
  seedMillionSeconds: 300,
  writesVsFloor: 0.6,
  reportP50Ms: 300,
  peakRssMiB: 300,
} as const;

export function assess(row: Row): AssessedRow {
  const vsFloor = row.result.rps / row.floor.rps;
  const p99VsFloor = row.result.p99 / row.floor.p99;
  const checks: [label: string, ok: boolean, why: string][] = [];
  if (row.kind === "catalog") {
    const t = TARGETS.cachedThroughputVsFloor;
    checks.push([`>= ${t}x floor`, vsFloor >= t, `${ratio(vsFloor)} floor`]);
    const p = TARGETS.cachedP99VsFloor;
    checks.push([`p99 <= ${p}x floor`, p99VsFloor <= p, `p99 ${ratio(p99VsFloor)} floor`]);
  } else {
    const t = TARGETS.writesVsFloor;
    checks.push([`>= ${t}x floor`, vsFloor >= t, `${ratio(vsFloor)} floor`]);
  }
  const failures = row.result.non2xx + row.result.errors;
  const missed = checks.filter(([, ok]) => !ok).map(([, , why]) => why);
  if (failures > 0) missed.unshift(`${failures} failed requests`);
  return {
    ...row,
    vsPlain: row.plain ? row.result.rps / row.plain.rps : null,
    vsFloor,
    p99VsFloor,
    target: checks.map(([label]) => label).join(", "),
    met: missed.length === 0,
    verdict: missed.length === 0 ? "met" : `MISSED (${missed.join(", ")})`,
  };
}

/** Every pair's throughput ratio, in the order measured (a drift shows), for the table and the summary. */
export function pairRatiosText(ratios: number[]): string {
  return ratios.map((x) => x.toFixed(2)).join(" ");
}

/** The load table: baselines first, then every measured scenario with its ratios and verdict. */
export function printLoadTable(rows: AssessedRow[]): void {
  const header = [
    "phase",
    "scenario",
    "conns",
    "bytes",
    "rps",
    "p50 ms",
    "p99 ms",
    "non2xx",
    "errors",
    "x node",
    "floor rps",
    "x floor",
    "p99 x floor",
    "pairs x floor",
    "target",
  ];
  const lines = rows.map((r) => [
    r.phase,
    r.scenario,
    ...measurementCells(r.connections, r.bytes, r.result),
    r.vsPlain === null ? "-" : ratio(r.vsPlain),
    r.floor.rps.toFixed(0),
    ratio(r.vsFloor),
    ratio(r.p99VsFloor),
    pairRatiosText(r.pairRatios),
    r.verdict,
  ]);
  const baselines = uniqueBaselines(rows).map((b) => [
    "baseline",
    b.name,
    ...measurementCells(b.connections, b.bytes, b.m),
    "",
    "",
    "",
    "",
    "",
    "",
  ]);
  console.log(`\n${table(header, [...baselines, null, ...lines], new Set([2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]))}`);
  console.log(
    '"x node" and "x floor" are throughput ratios against baselines sending the same bytes in the same run. Each scenario ' +
      'is measured in pairs, the floor route then the scenario; the row is the pair with the median ratio, and "pairs x floor" lists every pair\'s.',
  );
}

export function printDurability(durability: Durability[]): void {
  for (const d of durability) {
    const cutOff = d.inDatabase - d.created;
    console.log(
      `Durability (${d.kind}): ${d.created} 201 responses, ${d.found} of their intents committed, ${d.inDatabase} intents in the database` +
        `${cutOff > 0 ? ` (${cutOff} from requests cut off when a run stopped)` : ""}: ${durable(d) ? "ok" : "FAILED"}.`,
    );
  }
}

export const durable = (d: Durability): boolean => d.found === d.created && d.inDatabase >= d.created;

/** Cache-off latency at each catalog size, one connection: the growth table. */
export interface GrowthCell {
  games: number;
  scenario: string;
  result: Measurement;
}

export function printGrowthTable(cells: GrowthCell[]): { scenario: string; ratio: number; met: boolean }[] {
  const sizes = [...new Set(cells.map((c) => c.games))].sort((a, b) => a - b);
  const scenarios = [...new Set(cells.map((c) => c.scenario))];
  const cell = (scenario: string, games: number) => cells.find((c) => c.scenario === scenario && c.games === games)?.result;
  const [small, mid, large] = [sizes[0], sizes.at(-2), sizes.at(-1)];
  const header = ["scenario", ...sizes.map((n) => `${games(n)} p50 / p99 ms`), `p50 ${games(large ?? 0)} / ${games(mid ?? 0)}`, "target"];
  const verdicts: { scenario: string; ratio: number; met: boolean }[] = [];
  const lines = scenarios.map((scenario) => {
    const cols = sizes.map((n) => {
      const m = cell(scenario, n);
      return m ? `${ms(m.p50)} / ${ms(m.p99)}` : "-";
    });
    const a = mid === undefined ? undefined : cell(scenario, mid);
    const b = large === undefined ? undefined : cell(scenario, large);
    const growth = a && b && sizes.length > 1 ? b.p50 / a.p50 : Number.NaN;
    const met = Number.isFinite(growth) && growth <= TARGETS.growthP50Ratio;
    if (Number.isFinite(growth)) verdicts.push({ scenario, ratio: growth, met });
    return [scenario, ...cols, ratio(growth), Number.isFinite(growth) ? (met ? "met" : "MISSED") : "-"];
  });
  console.log(`\n${table(header, lines, new Set(sizes.map((_, i) => i + 1).concat([sizes.length + 1])))}`);
  if (small !== undefined)
    console.log(`Target: from ${games(mid ?? 0)} to ${games(large ?? 0)} games, no scenario's p50 more than ${TARGETS.growthP50Ratio}x.`);
  return verdicts;
}

const games = (n: number) => (n >= 1_000_000 ? `${n / 1_000_000}M` : n >= 1000 ? `${n / 1000}k` : String(n));

/** One line of the closing summary: a figure, its target, and whether this run met it. */
export interface Verdict {
  item: string;
  figure: string;
  value: string;
  target: string;
  met: boolean | null;
}

export function printSummary(verdicts: Verdict[]): void {
  const lines = verdicts.map((v) => [v.item, v.figure, v.value, v.target, v.met === null ? "-" : v.met ? "met" : "MISSED"]);
  console.log(`\n${table(["item", "figure", "value", "target", ""], lines, new Set([2]))}`);
  const judged = verdicts.filter((v) => v.met !== null);
  console.log(`Met ${judged.filter((v) => v.met).length} of ${judged.length}.`);
}

/** One scenario on one server configuration of `--cluster`. */
export interface ClusterRow {
  label: string;
  server: string;
  scenario: string;
  /** One measurement per round. */
  runs: Measurement[];
  /** The rounds' medians. */
  result: Measurement;
  /** Median over the rounds of the throughput against the single process's in the same round; null for it. */
  gain: number | null;
  /** Processor time the server's processes used per second of the run: cores kept busy (median). */
  cores: number;
  /** Successful requests per CPU-second of the server's processes (median). */
  perCpuSecond: number;
}

export function printClusterReport(report: {
  rows: ClusterRow[];
  peakRss: Record<string, number>;
  durability: Durability[];
  loadBefore: number;
  loadAfter: number;
  seconds: number;
}): void {
  const header = [
    "scenario",
    "server",
    "rps",
    "p50 ms",
    "p99 ms",
    "non2xx",
    "errors",
    "x 1 process",
    "cores",
    "req/CPU-s",
    "rps per round",
  ];
  const scenarios = [...new Set(report.rows.map((r) => r.scenario))];
  const lines = scenarios.flatMap((scenario, i) => [
    ...(i > 0 ? [null] : []),
    ...report.rows
      .filter((r) => r.scenario === scenario)
      .map((r) => [
        r.scenario,
        r.server,
        r.result.rps.toFixed(0),
        ms(r.result.p50),
        ms(r.result.p99),
        String(r.result.non2xx),
        String(r.result.errors),
        r.gain === null ? "-" : ratio(r.gain),
        r.cores.toFixed(2),
        r.perCpuSecond.toFixed(0),
        r.runs.map((m) => m.rps.toFixed(0)).join(" "),
      ]),
  ]);
  console.log(`\n${table(header, lines, new Set([2, 3, 4, 5, 6, 7, 8, 9]))}`);
  console.log(
    'Figures are medians over the rounds; "x 1 process" is the median of each round\'s throughput ratio; "cores" is the ' +
      "processor time the server's processes used per second (1.00 = one core busy), req/CPU-s the requests served per second of it.",
  );
  const servers = [...new Map(report.rows.map((r) => [r.label, r.server])).entries()];
  console.log(`\nPeak RSS (process tree): ${servers.map(([label, server]) => `${server} ${mib(report.peakRss[label] ?? 0)}`).join("; ")}.`);
  for (const d of report.durability) {
    const verdict = d.found === d.created && d.inDatabase >= d.created ? "ok" : "FAILED";
    console.log(`Durability (${d.kind}): ${d.created} 201 responses, ${d.found} of their intents committed: ${verdict}.`);
  }
  console.log(
    `Load average (1 min) ${report.loadBefore.toFixed(1)} before, ${report.loadAfter.toFixed(1)} after; whole run ${(report.seconds / 60).toFixed(1)} min.`,
  );
}

function uniqueBaselines(rows: Row[]) {
  const seen = new Map<string, { name: string; connections: number; bytes: number; m: Measurement }>();
  for (const r of rows) {
    for (const [name, m] of [["node:http", r.plain]] as const) {
      const key = `${name}/${r.connections}/${r.bytes}`;
      if (m && !seen.has(key)) seen.set(key, { name, connections: r.connections, bytes: r.bytes, m });
    }
  }
  return [...seen.values()];
}

/** Aligned columns, the `numeric` ones to the right; a null row is a separator. */
function table(header: string[], rows: (string[] | null)[], numeric = new Set([2, 3, 4, 5, 6, 7, 8, 9, 10, 11])): string {
  const all = [header, ...rows.filter((r): r is string[] => r !== null)];
  const widths = header.map((_, i) => Math.max(...all.map((r) => (r[i] ?? "").length)));
  const format = (r: string[]) =>
    r
      .map((cell, i) => (numeric.has(i) ? cell.padStart(widths[i] ?? 0) : cell.padEnd(widths[i] ?? 0)))
      .join("  ")
      .trimEnd();
  const rule = "-".repeat(widths.reduce((a, b) => a + b + 2, -2));
  return [format(header), rule, ...rows.map((r) => (r ? format(r) : rule))].join("\n");
}

export function ms(value: number): string {
  if (!Number.isFinite(value)) return "-";
  return value < 10 ? value.toFixed(2) : value.toFixed(1);
}

export function ratio(value: number): string {
  return Number.isFinite(value) ? `${value.toFixed(2)}x` : "-";
}

export function mib(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(0)} MiB`;
}

/** The columns every table row has: connections, body size and what autocannon measured. */
function measurementCells(connections: number, bytes: number, m: Measurement): string[] {
  return [String(connections), String(bytes), m.rps.toFixed(0), ms(m.p50), ms(m.p99), String(m.non2xx), String(m.errors)];
}
