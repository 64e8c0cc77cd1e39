// Soak mode for scripts/bench.ts: a steady mixed workload for minutes, reported per time window,
// so a leak (memory climbing) or a slowdown (p99 climbing) shows as a trend rather than a number.
import autocannon from "autocannon";
import { treeRssBytes } from "./load";

export interface SoakRequest {
  kind: "catalog" | "gift" | "gear";
  method: "GET" | "POST";
  path: string;
  body?: () => string;
}

export interface SoakSpec {
  origin: string;
  pid: number;
  headers: Record<string, string>;
  /** One cycle of the mix; every connection walks it in order, so the proportions hold exactly. */
  cycle: SoakRequest[];
  seconds: number;
  windowSeconds: number;
  rate: number;
  connections: number;
}

export interface SoakWindow {
  /** Seconds since the start, at the window's end. */
  at: number;
  /** The window's length; the last one may be short. */
  seconds: number;
  requests: number;
  rps: number;
  errors: number;
  non2xx: number;
  p50: number;
  p99: number;
  rssBytes: number;
}

export async function soak(spec: SoakSpec, onWindow: (w: SoakWindow) => void): Promise<SoakWindow[]> {
  const requests: autocannon.Request[] = spec.cycle.map((r) => ({
    method: r.method,
    path: r.path,
    headers: r.method === "POST" ? { ...spec.headers, "content-type": "application/json" } : spec.headers,
    ...(r.body ? { setupRequest: (req: autocannon.Request) => ({ ...req, body: r.body!() }) } : {}),
  }));
  const instance = autocannon({
    url: spec.origin,
    connections: spec.connections,
    duration: spec.seconds,
    overallRate: spec.rate,
    requests,
    timeout: 10,
  });

  const windows: SoakWindow[] = [];
  let latencies: number[] = [];
  let non2xx = 0;
  let errors = 0;
  const started = Date.now();
  instance.on("response", (_client: unknown, status: number, _bytes: number, ms: number) => {
    if (status >= 200 && status < 300) latencies.push(ms);
    else non2xx += 1;
  });
  instance.on("reqError", () => (errors += 1));
  const close = () => {
    const sorted = latencies.sort((a, b) => a - b);
    const at = (Date.now() - started) / 1000;
    const span = at - (windows.at(-1)?.at ?? 0);
    const w: SoakWindow = {
      at,
      seconds: span,
      requests: sorted.length + non2xx,
      rps: (sorted.length + non2xx) / span,
      errors,
      non2xx,
      p50: pick(sorted, 0.5),
      p99: pick(sorted, 0.99),
      rssBytes: treeRssBytes(spec.pid),
    };
    windows.push(w);
    onWindow(w);
    latencies = [];
    non2xx = 0;
    errors = 0;
  };
  const timer = setInterval(close, spec.windowSeconds * 1000);
  await instance;
  clearInterval(timer);
  if (latencies.length + non2xx > 0) close();
  return windows;
}

function pick(sorted: number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? Number.NaN;
}

/** Least-squares slope of y over x: how fast a figure climbs across the run. */
export function slope(points: Array<[number, number]>): number {
  const n = points.length;
  if (n < 2) return 0;
  const mx = points.reduce((s, [x]) => s + x, 0) / n;
  const my = points.reduce((s, [, y]) => s + y, 0) / n;
  const num = points.reduce((s, [x, y]) => s + (x - mx) * (y - my), 0);
  const den = points.reduce((s, [x]) => s + (x - mx) ** 2, 0);
  return den === 0 ? 0 : num / den;
}
