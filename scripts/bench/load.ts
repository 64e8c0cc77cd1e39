// Load generation and measurement for scripts/bench.ts: autocannon runs, exact percentiles, process-tree RSS.
import fs from "node:fs";
import autocannon from "autocannon";

export interface LoadSpec {
  origin: string;
  path: string;
  connections: number;
  /** Seconds measured, after `warmup` seconds whose figures are thrown away. */
  duration: number;
  warmup: number;
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  /** A string is sent as is; a function gives each request its own body. */
  body?: string | (() => string);
  /** Sees the body of every 2xx response, warm-up included (to collect created intent ids). */
  onOk?: (body: string) => void;
}

export interface Measurement {
  rps: number;
  /** Milliseconds, over 2xx responses, as autocannon counts them. */
  p50: number;
  p99: number;
  ok: number;
  non2xx: number;
  errors: number;
}

export async function measure(spec: LoadSpec): Promise<Measurement> {
  if (spec.warmup > 0) await run({ ...spec, duration: spec.warmup });
  return run(spec);
}

async function run(spec: LoadSpec): Promise<Measurement> {
  const { body, onOk } = spec;
  const request: autocannon.Request = { method: spec.method ?? "GET", path: spec.path, headers: spec.headers };
  if (typeof body === "string") request.body = body;
  if (typeof body === "function") request.setupRequest = (req) => ({ ...req, body: body() });
  if (onOk) request.onResponse = (status, text) => (status >= 200 && status < 300 ? onOk(text) : undefined);

  const instance = autocannon({ url: spec.origin, connections: spec.connections, duration: spec.duration, requests: [request] });
  // autocannon's own histogram keeps whole milliseconds; at one connection that is too coarse to compare.
  const latencies: number[] = [];
  instance.on("response", (_client: unknown, status: number, _bytes: number, ms: number) => {
    if (status >= 200 && status < 300) latencies.push(ms);
  });
  const result = await instance;
  latencies.sort((a, b) => a - b);
  return {
    rps: result.requests.average,
    p50: percentile(latencies, 0.5),
    p99: percentile(latencies, 0.99),
    ok: result["2xx"],
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

function percentile(sorted: number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? Number.NaN;
}

/**
 * Samples the resident memory of a process and all its descendants (`next start` may serve from a
 * child) every `everyMs`; `stop()` returns the highest total seen, in bytes.
 */
export function sampleTreeRss(rootPid: number, everyMs = 100): { stop(): number } {
  let peak = 0;
  const sample = () => (peak = Math.max(peak, treeRssBytes(rootPid)));
  sample();
  const timer = setInterval(sample, everyMs);
  return {
    stop() {
      clearInterval(timer);
      return peak;
    },
  };
}

export function treeRssBytes(rootPid: number): number {
  let total = 0;
  for (const pid of treePids(rootPid)) total += Number(/^VmRSS:\s+(\d+) kB/m.exec(readProc(`/proc/${pid}/status`))?.[1] ?? 0) * 1024;
  return total;
}

/** Processor time (user + system) the process and its descendants alive now have used, in seconds. */
export function treeCpuSeconds(rootPid: number): number {
  let ticks = 0;
  for (const pid of treePids(rootPid)) {
    // Fields after the command name, which may hold spaces: utime and stime are the 12th and 13th.
    const fields = readProc(`/proc/${pid}/stat`)
      .replace(/^.*\) /s, "")
      .split(" ");
    ticks += Number(fields[11] ?? 0) + Number(fields[12] ?? 0);
  }
  return ticks / CLOCK_TICKS_PER_SECOND;
}

/** Linux's USER_HZ, which /proc reports times in; 100 on every mainstream architecture. */
const CLOCK_TICKS_PER_SECOND = 100;

function treePids(rootPid: number): number[] {
  const found: number[] = [];
  const pending = [rootPid];
  for (let pid = pending.pop(); pid !== undefined; pid = pending.pop()) {
    found.push(pid);
    for (const tid of listProc(`/proc/${pid}/task`)) {
      for (const child of readProc(`/proc/${pid}/task/${tid}/children`).split(" ")) {
        if (child.trim()) pending.push(Number(child));
      }
    }
  }
  return found;
}

// A process may exit between listing and reading: it then simply counts for nothing.
function readProc(file: string): string {
  try {
    return fs.readFileSync(file, "utf8");
  } catch {
    return "";
  }
}

function listProc(dir: string): string[] {
  try {
    return fs.readdirSync(dir);
  } catch {
    return [];
  }
}
