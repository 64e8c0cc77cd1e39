// GET /api/metrics - Prometheus metrics of the whole server (every process of a cluster), behind METRICS_TOKEN (404 while it is unset)
import { createHash, timingSafeEqual } from "node:crypto";
import { errorResponse } from "@/lib/api/errors";
import { withRequestContext } from "@/lib/api/request-context";
import { env } from "@/lib/env";
import { collectMetrics, metrics } from "@/lib/metrics";

export const dynamic = "force-dynamic";

const digest = (value: string) => createHash("sha256").update(value).digest();

export const GET = withRequestContext(
  async (request: Request) => {
    // Unset: the endpoint does not exist, so a scanner learns nothing from it.
    if (!env.METRICS_TOKEN) return errorResponse("not_found", { method: request.method, path: new URL(request.url).pathname });
    const presented = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.get("authorization") ?? "")?.[1];
    // Compared as digests: equal length, constant time.
    if (!presented || !timingSafeEqual(digest(presented), digest(env.METRICS_TOKEN))) {
      return presented ? errorResponse("invalid_token", { problem: "not_a_token" }) : errorResponse("missing_token", {});
    }
    const collected = await collectMetrics();
    if (!collected.ok)
      return errorResponse("service_unavailable", { what: `the cluster's metrics could not be collected: ${collected.reason}; try again` });
    return new Response(collected.metrics, {
      headers: { "Content-Type": metrics.registry.contentType, "Cache-Control": "no-store" },
    });
  },
  { quiet: true },
);
