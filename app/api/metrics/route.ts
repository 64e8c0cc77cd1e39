// GET /api/metrics - Prometheus metrics of the whole server (every process of a cluster), behind METRICS_TOKEN (404 while it is unset)
import { createHash, timingSafeEqual } from "node:crypto";
import { errorResponse, unauthorized } from "@/lib/api/errors";
import { withRequestContext } from "@/lib/api/request-context";
import { env } from "@/lib/env";
import { collectMetrics, metrics } from "@/lib/metrics";

export const dynamic = "force-dynamic";

const digest = (value: string) => createHash("sha256").update(value).digest();

export const GET = withRequestContext(
  async (request: Request) => {
    // Unset: the endpoint does not exist, so a scanner learns nothing from it.
    if (!env.METRICS_TOKEN) return errorResponse(404, `no such endpoint: GET ${new URL(request.url).pathname}`);
    const presented = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.get("authorization") ?? "")?.[1];
    // Compared as digests: equal length, constant time.
    if (!presented || !timingSafeEqual(digest(presented), digest(env.METRICS_TOKEN))) {
      const refused = presented ? unauthorized("the metrics token is not valid", "invalid_token") : unauthorized("missing bearer token: send Authorization: Bearer <METRICS_TOKEN>");
      return errorResponse(refused.status, refused.message, refused.headers);
    }
    const collected = await collectMetrics();
    if (!collected.ok) return errorResponse(503, `the cluster's metrics could not be collected: ${collected.reason}; try again`, { "Retry-After": "5" });
    return new Response(collected.metrics, {
      headers: { "Content-Type": metrics.registry.contentType, "Cache-Control": "no-store" },
    });
  },
  { quiet: true },
);
