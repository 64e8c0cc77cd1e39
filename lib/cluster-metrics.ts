// The whole cluster's metrics for GET /api/metrics. A scrape reaches one server process (the
// cluster deals connections out); that process asks the cluster primary over IPC, and the primary
// answers with prom-client's aggregate of every server process's registry.
import cluster, { type Worker } from "node:cluster";
import { AggregatorRegistry, type PrometheusContentType } from "prom-client";
import { processSingleton } from "@/lib/singleton";

const REQUEST = "gk:cluster-metrics:request";
const RESPONSE = "gk:cluster-metrics:response";

/**
 * How long a server process waits for the primary. prom-client's collection gives up after 5 s
 * (a server process that does not answer it, such as one still starting), and the primary says so;
 * this is the margin beyond that for a primary that never answers at all.
 */
export const CLUSTER_METRICS_TIMEOUT_MS = 6_000;

interface MetricsRequest {
  type: typeof REQUEST;
  id: number;
}

interface MetricsResponse {
  type: typeof RESPONSE;
  id: number;
  metrics?: string;
  error?: string;
}

export type ClusterMetrics = { ok: true; metrics: string } | { ok: false; reason: string };

const isMessage = <T extends { type: string; id: number }>(type: T["type"], message: unknown): message is T =>
  typeof message === "object" && message !== null && (message as T).type === type && typeof (message as T).id === "number";

let answering: AggregatorRegistry<PrometheusContentType> | null = null;

/**
 * In the cluster primary: answers each server process's request with every process's metrics,
 * aggregated per series by the aggregator each metric declares (counters and histograms summed by
 * default; see lib/metrics.ts). Once per process; later calls do nothing.
 */
export function answerClusterMetricsRequests(): void {
  if (answering) return;
  // Its constructor also starts prom-client's own listener for the server processes' answers.
  const registry = (answering = new AggregatorRegistry());
  cluster.on("message", (worker: Worker, message: unknown) => {
    if (!isMessage<MetricsRequest>(REQUEST, message)) return;
    registry.clusterMetrics().then(
      (metrics) => reply(worker, { type: RESPONSE, id: message.id, metrics }),
      (err: unknown) => reply(worker, { type: RESPONSE, id: message.id, error: collectionError(err) }),
    );
  });
}

function collectionError(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  return message === "Operation timed out." ? "a server process did not send its metrics within 5 s (starting, or stuck)" : message;
}

function reply(worker: Worker, response: MetricsResponse): void {
  // The asker may have died since; nobody is left to tell.
  if (worker.isConnected()) worker.send(response, (err: Error | null) => void err);
}

interface Channel {
  next: number;
  pending: Map<number, (response: MetricsResponse) => void>;
}

// One listener per process: Next bundles this module into several routes.
function channel(): Channel {
  return processSingleton("cluster-metrics-channel", () => {
    const created: Channel = { next: 0, pending: new Map() };
    process.on("message", (message: unknown) => {
      if (isMessage<MetricsResponse>(RESPONSE, message)) created.pending.get(message.id)?.(message);
    });
    return created;
  });
}

/**
 * In a cluster's server process: the whole cluster's metrics from the primary, or why there are
 * none. Never a partial answer: summed counters that drop when one process is missing would read
 * to Prometheus as a reset of every counter.
 */
export function requestClusterMetrics(timeoutMs = CLUSTER_METRICS_TIMEOUT_MS): Promise<ClusterMetrics> {
  if (!process.send) return Promise.resolve({ ok: false, reason: "this process has no channel to a cluster primary" });
  const ipc = channel();
  const id = ipc.next++;
  return new Promise((resolve) => {
    const finish = (result: ClusterMetrics) => {
      clearTimeout(timer);
      ipc.pending.delete(id);
      resolve(result);
    };
    const timer = setTimeout(
      () =>
        finish({
          ok: false,
          reason: `the cluster primary did not answer within ${timeoutMs / 1000} s (is this server run by npm start or npm run serve?)`,
        }),
      timeoutMs,
    );
    ipc.pending.set(id, (response) =>
      finish(
        response.metrics !== undefined
          ? { ok: true, metrics: response.metrics }
          : { ok: false, reason: response.error ?? "no metrics in the answer" },
      ),
    );
    process.send!({ type: REQUEST, id } satisfies MetricsRequest, (err: Error | null) => {
      if (err) finish({ ok: false, reason: `could not reach the cluster primary: ${err.message}` });
    });
  });
}
