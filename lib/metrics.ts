import "server-only";
import cluster from "node:cluster";
import { sql } from "drizzle-orm";
import { AggregatorRegistry, Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";
import { requestClusterMetrics, type ClusterMetrics } from "@/lib/cluster-metrics";
import { getDb } from "@/lib/db/client";
import { processSingleton } from "@/lib/singleton";

function createMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: "gk_" });
  return {
    registry,
    httpRequests: new Counter({
      name: "gk_http_requests_total",
      help: "HTTP requests answered, by route pattern, method and status",
      labelNames: ["route", "method", "status"] as const,
      registers: [registry],
    }),
    httpDuration: new Histogram({
      name: "gk_http_request_duration_seconds",
      help: "Time from a request reaching its handler to its response, by route pattern and method",
      labelNames: ["route", "method"] as const,
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    }),
    rateLimited: new Counter({
      name: "gk_rate_limited_total",
      help: "Requests refused with 429, by policy (token, ip, signin, promo)",
      labelNames: ["policy"] as const,
      registers: [registry],
    }),
    intentsCreated: new Counter({
      name: "gk_intents_created_total",
      help: "Intents inserted, by kind (gift, gear)",
      labelNames: ["kind"] as const,
      registers: [registry],
    }),
    callbackDeliveries: new Counter({
      name: "gk_callback_attempts_total",
      help: "Callback attempts recorded, by outcome (delivered, retry, stopped, failed, lost-lease)",
      labelNames: ["outcome"] as const,
      registers: [registry],
    }),
    // 1 here; a cluster's answer sums it, so it says how many server processes the answer covers.
    serverProcesses: new Gauge({
      name: "gk_server_processes",
      help: "Server processes whose metrics this answer adds up (1 without a cluster)",
      registers: [registry],
      aggregator: "sum",
      collect() {
        this.set(1);
      },
    }),
    // Read from the database at scrape time: the same for every process, so a cluster's
    // aggregation takes one worker's value ("first") instead of adding them up.
    outboxPending: new Gauge({
      name: "gk_callback_outbox_pending",
      help: "Callbacks waiting to be delivered (all instances), by whether they are due now",
      labelNames: ["due"] as const,
      registers: [registry],
      aggregator: "first",
      async collect() {
        const result = await getDb().execute<{ due: number; waiting: number }>(sql`
          SELECT count(*) FILTER (WHERE next_attempt_at <= now())::int AS due,
                 count(*) FILTER (WHERE next_attempt_at > now())::int AS waiting
          FROM webhook_deliveries WHERE status = 'pending'`);
        const row = result.rows[0];
        this.set({ due: "yes" }, Number(row?.due ?? 0));
        this.set({ due: "no" }, Number(row?.waiting ?? 0));
      },
    }),
  };
}

export type Metrics = ReturnType<typeof createMetrics>;

// One registry per process: Next bundles this module into every route that imports it.

export const metrics: Metrics = processSingleton("metrics", initMetrics);

function initMetrics(): Metrics {
  const created = createMetrics();
  if (cluster.isWorker) {
    // Lets a cluster primary that runs an AggregatorRegistry collect this worker's metrics over IPC.
    AggregatorRegistry.setRegistries([created.registry]);
    new AggregatorRegistry();
  }
  return created;
}

const DYNAMIC_AFTER: Record<string, string> = { intents: ":intentId", games: ":appId", pay: ":intentId", orders: ":intentId" };

/** The route a path belongs to, ids replaced, so a label never has more values than the app has routes. */
export function routePattern(pathname: string): string {
  // The back office's route handlers (/admin/orders/export, ...) are literal paths: no segment is an id.
  if (pathname.startsWith("/admin/")) return pathname;
  const parts = pathname.split("/");
  return parts.map((part, i) => (i > 0 && DYNAMIC_AFTER[parts[i - 1]!] ? DYNAMIC_AFTER[parts[i - 1]!] : part)).join("/");
}

/**
 * What GET /api/metrics answers. A cluster's server process (npm start, npm run serve) answers for
 * the whole cluster, which its primary collects; a process on its own (`next start`) for itself.
 */
export async function collectMetrics(): Promise<ClusterMetrics> {
  if (cluster.isWorker) return requestClusterMetrics();
  return { ok: true, metrics: await metrics.registry.metrics() };
}

/** Records one answered request. */
export function observeRequest(route: string, method: string, status: number, seconds: number): void {
  metrics.httpRequests.inc({ route, method, status: String(status) });
  metrics.httpDuration.observe({ route, method }, seconds);
}
