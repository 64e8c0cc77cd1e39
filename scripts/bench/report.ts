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
  /** The floor route with the same body and connections. */
  floor: Measurement;
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

export function assess(row: Row): AssessedRow {
  const vsFloor = row.result.rps / row.floor.rps;
  const p99VsFloor = row.result.p99 / row.floor.p99;
  const checks: [label: string, ok: boolean, why: string][] = [];
  if (row.kind === "catalog" && row.connections === 1) {
    checks.push(["p50 < 5 ms", row.result.p50 < 5, `p50 ${ms(row.result.p50)} ms`]);
    checks.push(["p99 < 20 ms", row.result.p99 < 20, `p99 ${ms(row.result.p99)} ms`]);
  } else if (row.kind === "catalog") {
    checks.push([">= 0.7x floor", vsFloor >= 0.7, `${ratio(vsFloor)} floor`]);
    checks.push(["p99 <= 1.5x floor", p99VsFloor <= 1.5, `p99 ${ratio(p99VsFloor)} floor`]);
  } else {
    checks.push([">= 0.5x floor", vsFloor >= 0.5, `${ratio(vsFloor)} floor`]);
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

export function printReport(report: {
  rows: AssessedRow[];
  peakRss: { cached: number; uncached: number };
  durability: Durability[];
  seconds: number;
}): void {
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
    "x floor",
    "p99 x floor",
    "target",
  ];
  const lines = report.rows.map((r) => [
    r.phase,
    r.scenario,
    ...measurementCells(r.connections, r.bytes, r.result),
    r.vsPlain === null ? "-" : ratio(r.vsPlain),
    ratio(r.vsFloor),
    ratio(r.p99VsFloor),
    r.verdict,
  ]);
  const baselines = uniqueBaselines(report.rows).map((b) => [
    "baseline",
    b.name,
    ...measurementCells(b.connections, b.bytes, b.m),
    "",
    "",
    "",
    "",
  ]);
  console.log(`\n${table(header, [...baselines, null, ...lines])}`);
  console.log(
    `\nTargets: catalog >= 0.7x floor throughput and p99 <= 1.5x floor p99 at ${maxConnections(report.rows)} connections; ` +
      "p50 < 5 ms and p99 < 20 ms at 1 connection; verify and gear >= 0.5x floor.",
  );
  const assessed = report.rows.filter((r) => r.met !== null);
  console.log(`Met ${assessed.filter((r) => r.met).length} of ${assessed.length}; "x node" and "x floor" are throughput ratios.`);
  console.log(
    `Peak RSS of the Next server (process tree): ${mib(report.peakRss.cached)} cached, ${mib(report.peakRss.uncached)} uncached.`,
  );
  for (const d of report.durability) {
    const cutOff = d.inDatabase - d.created;
    const verdict = d.found === d.created && cutOff >= 0 ? "ok" : "FAILED";
    console.log(
      `Durability (${d.kind}): ${d.created} 201 responses, ${d.found} of their intents committed, ${d.inDatabase} intents in the database` +
        `${cutOff > 0 ? ` (${cutOff} from requests cut off when a run stopped)` : ""}: ${verdict}.`,
    );
  }
  console.log(`Whole run: ${(report.seconds / 60).toFixed(1)} min.`);
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
    for (const [name, m] of [
      ["node:http", r.plain],
      ["floor route", r.floor],
    ] as const) {
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

function maxConnections(rows: Row[]): number {
  return Math.max(...rows.map((r) => r.connections));
}

export function ms(value: number): string {
  if (!Number.isFinite(value)) return "-";
  return value < 10 ? value.toFixed(2) : value.toFixed(1);
}

function ratio(value: number): string {
  return Number.isFinite(value) ? `${value.toFixed(2)}x` : "-";
}

export function mib(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(0)} MiB`;
}

/** The columns every table row has: connections, body size and what autocannon measured. */
function measurementCells(connections: number, bytes: number, m: Measurement): string[] {
  return [String(connections), String(bytes), m.rps.toFixed(0), ms(m.p50), ms(m.p99), String(m.non2xx), String(m.errors)];
}
